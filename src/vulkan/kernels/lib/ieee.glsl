// Division and square root rounded as IEEE rounds them (correctly), as the reference's C++ does. Vulkan lets a GPU
// round f32 ones to 2.5 ulp and NVIDIA does; the f64 quotient or root of f32 operands, rounded to f32, is the
// correctly rounded f32 result (53 >= 2 * 24 + 2 bits). f64 ones are taken as the device computes them (correctly
// rounded on the devices tested). Callers pass operands already computed into `precise` variables.
#ifndef NXV_LIB_IEEE_GLSL
#define NXV_LIB_IEEE_GLSL
float nxv_ieee_divide(float a, float b) {
  precise double q = double(a) / double(b);
  return float(q);
}
double nxv_ieee_divide(double a, double b) {
  precise double q = a / b;
  return q;
}
float nxv_ieee_sqrt(float x) { return float(sqrt(double(x))); }
double nxv_ieee_sqrt(double x) { return sqrt(x); }
#endif
