// The push constants and index helpers of the window shaders (window.comp, window_scatter.comp): 4 axes, the
// leading ones padded with size 1 (src/vulkan/kernels/window.cpp collapses the axes without a window).
#ifndef NXV_LIB_WINDOW_GLSL
#define NXV_LIB_WINDOW_GLSL

layout(push_constant) uniform Push {
  uint count;  // invocations that do work: outputs (window, select) or x elements (scatter)
  uint x_size[4];
  uint out_size[4];  // windows per axis
  uint window[4];
  uint stride[4];
  int low[4];
  uint dilation[4];
} pc;

// Row-major strides of x (the last is 1).
void row_major_strides(out uint s[4]) {
  s[3] = 1u;
  s[2] = pc.x_size[3];
  s[1] = s[2] * pc.x_size[2];
  s[0] = s[1] * pc.x_size[1];
}

// The x coordinates of window o's first element (possibly in the padding).
void window_origin(uint o, out int origin[4]) {
  uint rest = o;
  for (int d = 3; d >= 0; --d) {
    origin[d] = int((rest % pc.out_size[d]) * pc.stride[d]) - pc.low[d];
    rest /= pc.out_size[d];
  }
}

#endif
