# The linear-algebra kernels (src/vulkan/kernels/linalg.cpp): f32 and f64 only, one variant per op.
foreach(t f32 f64)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME linalg_cholesky_${t} SOURCE linalg.comp DEFINES CHOLESKY ${a})
  nxv_shader(NAME linalg_triangular_solve_${t} SOURCE linalg.comp DEFINES TRIANGULAR_SOLVE ${a})
  nxv_shader(NAME linalg_lu_${t} SOURCE linalg.comp DEFINES LU ${a})
  # Matrices of order <= 32 in shared memory (linalg.cpp's kSmallElements: 32 x 34 elements, 8.5 KiB in f64).
  nxv_shader(NAME linalg_cholesky_small_${t} SOURCE linalg.comp DEFINES CHOLESKY SMALL=1088 ${a})
  nxv_shader(NAME linalg_lu_small_${t} SOURCE linalg.comp DEFINES LU SMALL=1088 ${a})
  nxv_shader(NAME linalg_qr_${t} SOURCE linalg_orthogonal.comp DEFINES QR ${a})
  nxv_shader(NAME linalg_eigh_${t} SOURCE linalg_orthogonal.comp DEFINES EIGH ${a})
  nxv_shader(NAME linalg_svd_${t} SOURCE linalg_orthogonal.comp DEFINES SVD ${a})
endforeach()
