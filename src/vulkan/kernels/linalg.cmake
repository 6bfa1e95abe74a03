# The linear-algebra kernels (src/vulkan/kernels/linalg.cpp): f32 and f64 only, one variant per op.
foreach(t f32 f64)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME linalg_cholesky_${t} SOURCE linalg.comp DEFINES CHOLESKY ${a})
  nxv_shader(NAME linalg_triangular_solve_${t} SOURCE linalg.comp DEFINES TRIANGULAR_SOLVE ${a})
  nxv_shader(NAME linalg_lu_${t} SOURCE linalg.comp DEFINES LU ${a})
  nxv_shader(NAME linalg_qr_${t} SOURCE linalg_orthogonal.comp DEFINES QR ${a})
  nxv_shader(NAME linalg_eigh_${t} SOURCE linalg_orthogonal.comp DEFINES EIGH ${a})
endforeach()
