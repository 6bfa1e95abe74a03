// stop_gradient and custom_grad: marker nodes of the traced graph. They are not OpCodes, so no backend has
// to know about them: outside a trace they return their value, and the evaluator re-emits them when it
// replays a graph inside another trace, so an enclosing grad sees them too.
#include "trace/tracer.hpp"

namespace nxv {

Tensor stop_gradient(const Tensor& x) {
  NXV_CHECK(x.defined(), "stop_gradient", "got an undefined (default-constructed) tensor");
  Tracer* tracer = tracer_of(x);
  if (!tracer) return x;
  return tracer->record_marker(NodeKind::stop_gradient, {&x, 1}, x.type());
}

namespace detail {

Tensor attach_custom_vjp(std::span<const Tensor> inputs, const Tensor& output, std::shared_ptr<const CustomVjp> vjp) {
  NXV_CHECK(output.defined(), "custom_grad", "the function returned an undefined (default-constructed) tensor");
  for (const Tensor& t : inputs)
    NXV_CHECK(t.defined(), "custom_grad", "got an undefined (default-constructed) input tensor");
  Tracer* tracer = innermost_tracer(inputs);
  const Tracer* output_tracer = tracer_of(output);
  NXV_CHECK(!output_tracer || (tracer && output_tracer->depth() <= tracer->depth()), "custom_grad",
            "the function's result depends on a traced tensor it captured instead of receiving it as an input; "
            "pass that tensor as an argument so the custom gradient can account for it");
  if (!tracer) return output;
  std::vector<Tensor> operands(inputs.begin(), inputs.end());
  operands.push_back(output);
  return tracer->record_marker(NodeKind::custom_vjp, operands, output.type(), std::move(vjp));
}

}  // namespace detail
}  // namespace nxv
