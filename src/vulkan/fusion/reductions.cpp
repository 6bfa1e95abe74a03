// Pass plan_reduction_stages (passes.hpp): the candidate reduction stages and the regions they absorb.
#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/passes.hpp"
#include "vulkan/fusion/program.hpp"

namespace nxv::vulkan::fusion {

void plan_reduction_stages(Planning& p) {
  const Graph& g = p.graph;
  p.reductions.clear();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!p.reduction_allowed[i] || !reducible(g, g.nodes[i])) continue;
    const NodeId input = g.nodes[i].inputs[0];
    const Shape& domain = g.nodes[input].type.shape;
    const IndexMap identity = identity_map(domain);
    const auto [x, m] = resolve(g, input, identity, domain);
    int region = p.region_of[x];
    if (region >= 0 && !(g.nodes[p.regions[region][0]].type.shape == domain && is_identity(m, domain))) region = -1;
    ReductionStage red;
    red.region = region;
    red.full = reduction_program(g, p.region_of, region, region >= 0 ? p.regions[region] : std::vector<NodeId>{},
                                 static_cast<NodeId>(i));
    // Only a computed input, or one read through a view (a slice, a transpose) that would otherwise be copied first,
    // pays: a reduction of a materialised value keeps the eager (vectorised) kernel.
    const Instruction& value = red.full.program[red.full.reduce_value];
    if (value.kind == Instruction::Kind::read) {
      const Read& r = red.full.reads[static_cast<std::size_t>(value.read)];
      if (r.plain(identity.strides)) continue;
    } else if (value.kind != Instruction::Kind::op) {
      continue;
    }
    red.member_value = member_values(g, red.full, p.region_of, region);
    p.reductions.emplace(static_cast<NodeId>(i), std::move(red));
  }
  // The reduction that absorbs each region: the first one computing its members.
  p.absorber.assign(p.regions.size(), -1);
  for (const auto& [node, red] : p.reductions)
    if (red.region >= 0 && p.absorber[red.region] < 0) p.absorber[red.region] = node;
}

}  // namespace nxv::vulkan::fusion
