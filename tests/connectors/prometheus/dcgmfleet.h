#pragma once

// A deterministic DCGM fleet shared by the simulator and real-Prometheus tests: 2 nodes x 8
// V100s, some held by Run:ai job pods, readings a pure function of (node, gpu, tick).

#include <cstdint>
#include <string>
#include <vector>

namespace strata::prometheus::test {

struct FleetGpu
{
    std::string node;
    int gpu = 0;
    std::string uuid;
    std::string model;
    std::string pod, namespace_, container; ///< empty = idle
    double utilPct = 0, fbUsedMiB = 0, fbFreeMiB = 0, powerW = 0, tempC = 0;
};

inline constexpr int kFleetNodes = 2;
inline constexpr int kFleetGpusPerNode = 8;
inline constexpr double kFleetFbTotalMiB = 32510;

inline std::string fleetNode(int n)
{
    return "dgx-0" + std::to_string(n + 1);
}

/// Who holds GPU `gpu` on node `n`: dgx-01 0-3 team-a, dgx-01 4-5 team-b, dgx-02 0-1 team-b,
/// dgx-02 7 an unmanaged namespace, everything else idle.
inline void fleetHolder(int n, int gpu, FleetGpu &out)
{
    if (n == 0 && gpu <= 3) {
        out.pod = "train-a-0-abcde";
        out.namespace_ = "runai-team-a";
    } else if ((n == 0 && gpu <= 5) || (n == 1 && gpu <= 1)) {
        out.pod = n == 0 ? "train-b-0-fghij" : "train-b-1-klmno";
        out.namespace_ = "runai-team-b";
    } else if (n == 1 && gpu == 7) {
        out.pod = "notebook-0";
        out.namespace_ = "research";
    }
    if (!out.pod.empty()) {
        out.container = "main";
    }
}

/// Readings at tick `k` (any integer >= 0).
inline FleetGpu fleetGpu(int n, int gpu, std::int64_t k)
{
    FleetGpu g;
    g.node = fleetNode(n);
    g.gpu = gpu;
    g.uuid = "GPU-" + std::to_string(1000 + n) + "-0000-4000-8000-00000000000" + std::to_string(gpu);
    g.model = "Tesla V100-SXM2-32GB";
    fleetHolder(n, gpu, g);
    const bool held = !g.pod.empty();
    g.utilPct = held ? static_cast<double>((gpu * 13 + n * 7 + k * 3) % 101) : 0.0;
    g.fbUsedMiB = held ? 16000.0 + gpu * 512 + static_cast<double>(k % 10) * 100 : 0.0;
    g.fbFreeMiB = kFleetFbTotalMiB - g.fbUsedMiB;
    g.powerW = 45.5 + g.utilPct * 2.5;
    g.tempC = 33 + static_cast<double>(static_cast<int>(g.utilPct) / 4);
    return g;
}

inline std::vector<FleetGpu> fleetAt(std::int64_t k)
{
    std::vector<FleetGpu> out;
    for (int n = 0; n < kFleetNodes; ++n) {
        for (int gpu = 0; gpu < kFleetGpusPerNode; ++gpu) {
            out.push_back(fleetGpu(n, gpu, k));
        }
    }
    return out;
}

} // namespace strata::prometheus::test
