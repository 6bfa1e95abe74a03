// The consumer of the installed package (tests/package): adds two tensors on the default backend and checks the sum.
#include <cstdio>
#include <string>
#include <vector>

#include <nxv/nxv.hpp>  // the umbrella header: every public header compiles on its own installed

int main() {
  const nxv::Tensor a = nxv::tensor<float>({1, 2, 3, 4}, {2, 2});
  const nxv::Tensor b = nxv::tensor<float>({10, 20, 30, 40}, {2, 2});
  const nxv::Tensor c = nxv::add(a, b);
  const std::vector<float> want = {11, 22, 33, 44};
  if (c.to_vector<float>() != want) {
    std::fprintf(stderr, "consumer: add on the %s backend gave %s, expected [[11, 22], [33, 44]]\n",
                 std::string(nxv::default_backend().name()).c_str(), c.to_string().c_str());
    return 1;
  }
  std::printf("consumer ok\n");
  return 0;
}
