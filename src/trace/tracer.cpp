#include "trace/tracer.hpp"

namespace nxv {

namespace {

// A traced tensor's storage: the node it stands for. It keeps its tracer alive, so that a tensor escaping
// the traced function fails with a clear error instead of pointing at a destroyed backend.
struct TracedStorage final : Storage {
  std::shared_ptr<Tracer> tracer;
  NodeId node;
  TracedStorage(std::shared_ptr<Tracer> t, NodeId n) : tracer(std::move(t)), node(n) {}
};

thread_local int active_traces = 0;

}  // namespace

Tracer* tracer_of(const Tensor& t) { return dynamic_cast<Tracer*>(&t.backend()); }

Tracer* innermost_tracer(std::span<const Tensor> inputs) {
  Tracer* best = nullptr;
  for (const Tensor& t : inputs) {
    Tracer* tr = t.defined() ? tracer_of(t) : nullptr;
    if (tr && (!best || tr->depth() > best->depth())) best = tr;
  }
  return best;
}

void Tracer::check_open(std::string_view op) const {
  NXV_CHECK(!finished_, op,
            "a traced tensor was used after its trace ended (it escaped the traced function, "
            "e.g. stored in a variable outside it); return it from the function instead");
}

std::shared_ptr<Storage> Tracer::upload(std::span<const std::byte> bytes, const TensorType& type) {
  check_open("from_data");
  Node node;
  node.kind = NodeKind::constant;
  node.type = type;
  node.constant = from_bytes(bytes, type, reference_backend());
  const NodeId id = static_cast<NodeId>(graph_.nodes.size());
  graph_.nodes.push_back(std::move(node));
  return std::make_shared<TracedStorage>(shared_from_this(), id);
}

void Tracer::download(const Tensor& t, std::span<std::byte>) {
  detail::fail("cannot read the values of a traced tensor inside a traced function: ", to_string(t.type()),
               " (item, to_vector, to_string and Tensor::to need values; compute with ops instead)");
}

std::shared_ptr<Storage> Tracer::execute(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  return record(call, inputs, out).storage();
}

Tensor Tracer::append(Node node) {
  const NodeId id = static_cast<NodeId>(graph_.nodes.size());
  const TensorType type = node.type;
  const bool weak = node.weak;
  graph_.nodes.push_back(std::move(node));
  return Tensor(type, *this, std::make_shared<TracedStorage>(shared_from_this(), id), weak);
}

NodeId Tracer::node_of(const Tensor& t) {
  if (&t.backend() == this) return static_cast<const TracedStorage&>(*t.storage()).node;
  const auto [first, last] = constants_.equal_range(t.storage().get());
  for (auto it = first; it != last; ++it) {
    const Node& c = graph_.nodes[it->second];
    if (c.type == t.type() && c.weak == t.weak()) return it->second;
  }
  Node node;
  node.kind = NodeKind::constant;
  node.type = t.type();
  node.weak = t.weak();
  node.constant = t;
  const NodeId id = static_cast<NodeId>(graph_.nodes.size());
  graph_.nodes.push_back(std::move(node));
  constants_.emplace(t.storage().get(), id);
  return id;
}

Tensor Tracer::record(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  check_open(describe(call));
  Node node;
  node.kind = NodeKind::op;
  node.call = call;
  node.type = out;
  for (const Tensor& t : inputs) node.inputs.push_back(node_of(t));
  return append(std::move(node));
}

Tensor Tracer::record_marker(NodeKind kind, std::span<const Tensor> inputs, const TensorType& type,
                             std::shared_ptr<const CustomVjp> custom) {
  check_open(kind == NodeKind::stop_gradient ? "stop_gradient" : "custom_grad");
  Node node;
  node.kind = kind;
  node.type = type;
  node.custom = std::move(custom);
  for (const Tensor& t : inputs) node.inputs.push_back(node_of(t));
  return append(std::move(node));
}

std::vector<Tensor> Tracer::record_control(std::shared_ptr<const ControlFlow> control, std::span<const Tensor> inputs) {
  check_open(control_name(control->kind));
  Node node;
  node.kind = NodeKind::control;
  node.type = control->results.empty() ? TensorType{{}, DType::pred} : control->results[0];
  for (const Tensor& t : inputs) node.inputs.push_back(node_of(t));
  node.control = control;
  const NodeId id = static_cast<NodeId>(graph_.nodes.size());
  graph_.nodes.push_back(std::move(node));
  std::vector<Tensor> results;
  for (std::size_t r = 0; r < control->results.size(); ++r) {
    Node result;
    result.kind = NodeKind::result;
    result.type = control->results[r];
    result.weak = control->weak[r];
    result.inputs = {id};
    result.result = static_cast<int>(r);
    results.push_back(append(std::move(result)));
  }
  return results;
}

Tensor Tracer::parameter(const Tensor& like) { return parameter(like.type(), like.weak()); }

Tensor Tracer::parameter(const TensorType& type, bool weak) {
  check_open("trace");
  Node node;
  node.kind = NodeKind::parameter;
  node.type = type;
  node.weak = weak;
  node.parameter = static_cast<int>(graph_.parameters.size());
  graph_.parameters.push_back(static_cast<NodeId>(graph_.nodes.size()));
  return append(std::move(node));
}

Graph Tracer::finish(std::span<const Tensor> outputs) {
  check_open("trace");
  for (const Tensor& t : outputs) {
    NXV_CHECK(t.defined(), "trace", "the traced function returned an undefined (default-constructed) tensor");
    graph_.outputs.push_back(node_of(t));
  }
  finished_ = true;
  constants_.clear();
  return std::move(graph_);
}

TraceScope::TraceScope() : tracer_(std::make_shared<Tracer>(++active_traces)) {}

TraceScope::~TraceScope() {
  --active_traces;
  // When the traced function threw, tensors that escaped it must fail loudly too.
  tracer_->abandon();
}

}  // namespace nxv
