// math.glsl -- GLSL side of the shared GLSL/C++ double-precision math library.
// Include from a compute shader (glslc -I shaders ...):
//     #extension GL_GOOGLE_include_directive : require
//     #include "lib/math.glsl"
// Requires #version 450 (double precision, GLSL 4.20 initializer lists) and
// the Float64 device feature (shaderFloat64). No int64 is needed.
// All algorithm code is in src/shared/math.glsl.h (shared with the C++ CPU
// backend); see the rules at the top of that file.
#ifndef NXV_LIB_MATH_GLSL
#define NXV_LIB_MATH_GLSL

#define NXV_FUNC
#define NXV_PRECISE precise

#include "shared/math.glsl.h"
#include "shared/math_special.glsl.h"
#include "shared/math_polygamma.glsl.h"

#endif
