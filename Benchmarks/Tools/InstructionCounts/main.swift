// Runs one workload a given number of times, for Benchmarks/Scripts/instructions.py to count the
// instructions under callgrind: `InstructionCounts <workload> <operations>`, or `InstructionCounts list`.
// The script counts only what runs inside `measuredOperations` (callgrind's --toggle-collect), so setup
// and process start are left out.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let workloads =
    cacheKitWorkloads() + diskWorkloads() + dikitWorkloads() + bindingWorkloads() + networkLayerWorkloads()

if arguments.first == "list" {
    for workload in workloads { print(workload.name) }
    exit(0)
}
guard arguments.count == 2, let name = arguments.first, let count = arguments.last.flatMap({ Int($0) }),
    count >= 0, let workload = workloads.first(where: { $0.name == name })
else {
    FileHandle.standardError.write(Data("usage: InstructionCounts <workload> <operations> | list\n".utf8))
    exit(64)
}
/// The operations callgrind counts; never inlined, so its name stays in the binary.
@inline(never)
func measuredOperations(_ run: (Int) -> Void, count: Int) {
    run(count)
}

let run = workload.prepare()
measuredOperations(run, count: count)
