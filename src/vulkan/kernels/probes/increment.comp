// Runtime test shader: x += 1 in place over n uints (one binding that is read and written).
#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer X { uint x[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) x[i] += 1u;
}
