#include "vulkan/fusion/op_table.hpp"

#include <iterator>

namespace nxv::vulkan::fusion {
namespace {

struct Row {
  int id;
  ElementwiseEntry entry;
};

const Row k_unary[] = {
#define NXV_UNARY(id, name, cls, expr) {id, {#name, OpClass::cls, #expr}},
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
};

const Row k_binary[] = {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) {id, {#name, OpClass::cls, #expr}},
#include "shared/elementwise.def"
};

const ElementwiseEntry* find(const Row* begin, const Row* end, int fn) {
  for (const Row* r = begin; r != end; ++r)
    if (r->id == fn) return &r->entry;
  return nullptr;
}

}  // namespace

const ElementwiseEntry* unary_entry(UnaryFn fn) {
  return find(std::begin(k_unary), std::end(k_unary), static_cast<int>(fn));
}
const ElementwiseEntry* binary_entry(BinaryFn fn) {
  return find(std::begin(k_binary), std::end(k_binary), static_cast<int>(fn));
}

}  // namespace nxv::vulkan::fusion
