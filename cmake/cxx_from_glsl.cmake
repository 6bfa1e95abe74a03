# Script mode: writes OUT, the C++ spelling of the shared GLSL source IN (NAME: how to name it in the header). The only difference between the two
# languages that the shared math library (src/shared/math.glsl.h) cannot bridge with macros is GLSL's double
# literal suffix: `0.5lf` is a double in GLSL, an error in standard C++ (GCC accepted it as a user-defined literal,
# clang refuses the reserved suffix). So the C++ copy is the same text with that suffix dropped — the same decimal
# digits, which C++ reads as the nearest double, as glslang does.
file(READ ${IN} text)
string(REGEX REPLACE "([0-9.])lf([^A-Za-z0-9_])" "\\1\\2" text "${text}")
file(WRITE ${OUT} "// Generated from ${NAME} by cmake/cxx_from_glsl.cmake (double literals without GLSL's lf suffix). Do not edit.\n${text}")
