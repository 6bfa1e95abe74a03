// Runtime test shader: y[i] = A * 1000 + B for specialization constants A (id 0) and B (id 1).
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int A = 0;
layout(constant_id = 1) const int B = 0;
layout(binding = 0) writeonly buffer Y { int y[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = A * 1000 + B;
}
