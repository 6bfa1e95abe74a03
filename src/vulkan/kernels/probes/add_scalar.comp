// Runtime test shader: y = x + value over n floats (two bindings, a push-constant block).
#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push { uint n; float value; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = x[i] + value;
}
