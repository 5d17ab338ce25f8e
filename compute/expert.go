package compute

import (
	"fmt"
	"math"

	"github.com/gpuplan/gpuplan/sizing"
)

// Expert parallelism (Serving.Expert): the routed experts of a mixture of experts
// are spread over Expert groups of the replica's Devices, Experts/Expert whole
// experts to a group, each group's split tensor-parallel over its Devices/Expert
// devices, while attention and the shared weights stay tensor-parallel over all
// the Devices, as DeepSeek-V3's deployment runs attention and its MoE layers
// (DeepSeek-AI 2024, arXiv 2412.19437, §3.4) and as vLLM's and SGLang's
// expert-parallel modes do. Each device holds the same share of the weights either
// way, so memory is as without it; time differs twice:
//
//   - The tokens of each MoE layer go to their experts' groups and come back: a
//     dispatch and a combine all-to-all (Lepikhin et al. 2020, "GShard", §2.2), in
//     place of the all-reduce after the MLP, and an all-reduce within a group of
//     more than one device. Each token's hidden state travels once for each of the
//     k experts it is routed to, each way; spread evenly over the devices, a device
//     sends tokens·k·hidden/devices bytes of which (Expert − 1)/Expert leave its
//     group, in Expert − 1 pairwise exchanges (Thakur et al. 2005, pairwise
//     exchange: (p − 1)·latency + (p − 1)/p · bytes/bandwidth), with the launch cost of an
//     all-reduce of the same group (AllReduceBase + AllReduceHop·log₂(Expert)).
//   - A step waits for the group whose experts its tokens touch most. With m of a
//     layer's experts touched at random over Expert groups, the busiest holds about
//     m/Expert + √(2·(m/Expert)·ln Expert) of them (Raab and Steger 1998, "Balls
//     into Bins: A Simple and Tight Analysis", the heavily loaded case),
//     and never more than m or Experts/Expert. At small batch this makes expert
//     parallelism read slower than tensor parallelism; at large batch every group
//     holds work and the all-to-alls carry less than the all-reduces they replace
//     when k is below the devices.
//
// Compute is taken to be spread evenly over the groups.

// setExpert validates the expert-parallel degree e (Serving.Expert) of model m over
// the replica's devices and sets it: zero or 1 is none; otherwise m must be a
// mixture of experts and e must divide both its experts and the devices. Errors
// name the field and wrap ErrInvalid.
func (r *replica) setExpert(m sizing.Model, e int) error {
	switch {
	case e == 0 || e == 1:
		return nil
	case e < 0:
		return fmt.Errorf("compute: serving expert %d, want 0 or an expert-parallel degree that divides the devices: %w", e, ErrInvalid)
	case m.Experts < 2 || m.ExpertsPerToken < 1:
		return fmt.Errorf("compute: serving expert %d on %s, a dense model: expert parallelism needs a mixture of experts: %w", e, modelName(m), ErrInvalid)
	case int(r.devices)%e != 0:
		return fmt.Errorf("compute: serving expert %d does not divide the replica's %d devices: %w", e, int(r.devices), ErrInvalid)
	case m.Experts%e != 0:
		return fmt.Errorf("compute: serving expert %d does not divide the %d experts of %s: %w", e, m.Experts, modelName(m), ErrInvalid)
	}
	r.ep = float64(e)
	r.moeLayers = math.Max(r.layers-float64(m.DenseLayers), 0)
	r.moeRouted = float64(m.ExpertsPerToken)
	return nil
}

// busiest returns, for touched experts of a layer, the experts a step's read
// waits for, as a count over the whole replica: touched without expert
// parallelism (every device reads its share of each), and otherwise Expert times
// what the busiest group holds (it reads them with 1/Expert of the devices).
func (r *replica) busiest(touched float64) float64 {
	if r.ep <= 1 {
		return touched
	}
	per := touched / r.ep
	most := per + math.Sqrt(2*per*math.Log(r.ep))
	return r.ep * math.Min(most, math.Min(touched, r.experts/r.ep))
}

// comm returns the seconds of a step's collectives over tokens tokens: two
// all-reduces a layer under tensor parallelism (see step); under expert
// parallelism each MoE layer trades the one after its MLP for a dispatch and a
// combine all-to-all and an all-reduce within its group.
func (r *replica) comm(tokens float64) float64 {
	tp := r.reduce(tokens, r.devices)
	if r.ep <= 1 {
		return 2 * r.layers * tp
	}
	bytes := tokens / r.devices * r.moeRouted * r.hiddenBytes * (r.ep - 1) / r.ep
	a2a := AllReduceBase.Seconds() + AllReduceHop.Seconds()*math.Log2(r.ep) +
		(r.ep-1)*r.link.Latency.Seconds() + bytes/float64(r.link.Bandwidth)
	return (2*r.layers-r.moeLayers)*tp + r.moeLayers*(2*a2a+r.reduce(tokens, r.devices/r.ep))
}
