"""The Gloo peer of `dssync bench allreduce`: PyTorch's Gloo all-reduce with the same plan.

Run by the Java benchmark (io.dssync.bench.GlooPeer), never by hand: N processes on 127.0.0.1. With
DSSYNC_GLOO_RANK=R and DSSYNC_GLOO_ADDR=A in the environment it runs rank R alone, meeting the
others at A (submit-scripts/testbed/allreduce-vs-gloo starts one per host of the netns testbed).
Ranks are cut into consecutive groups of g that run at once (the same plan as ours), for each message
size and g: `warmup` untimed (per size, as ours) and `iters` timed all-reduces of a float32 vector followed by a
division by g (ours averages, so both sides compute a mean). Each rank prints one line per cell it
took part in:  CELL <index> <rank> <interval_ms>,<interval_ms>,...   (intervals between the ends of
consecutive timed operations, as ours records them), and CPU <index> <rank> <ms> (the process's CPU
time per timed operation, all its threads, as ours reports cpu_ms_per_op). Exits non-zero with a message on any error.

Arguments: workers sizes(comma bytes) groups(comma) warmups(comma, one per size) iters port timeout_s out_dir
"""
import datetime
import os
import sys
import time


def worker(rank, workers, sizes, groups, warmups, iters, port, timeout_s, out_dir, addr="127.0.0.1"):
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)  # one core per rank, like one executor slot
    dist.init_process_group("gloo", init_method="tcp://%s:%d" % (addr, port), rank=rank,
                            world_size=workers, timeout=datetime.timedelta(seconds=timeout_s))
    # Every rank must create every group, in the same order.
    handles = {}
    for g in groups:
        handles[g] = [dist.new_group(list(range(i * g, i * g + g))) for i in range(workers // g)]
    lines = []
    cell = 0
    for size, warmup in zip(sizes, warmups):
        vector = torch.full((size // 4,), float(rank + 1), dtype=torch.float32)
        for g in groups:
            index = rank // g
            if index < workers // g:
                group = handles[g][index]
                for _ in range(warmup):
                    dist.all_reduce(vector, group=group)
                    vector.div_(g)
                times = []
                cpu = time.process_time()
                last = time.perf_counter()
                for _ in range(iters):
                    dist.all_reduce(vector, group=group)
                    vector.div_(g)
                    now = time.perf_counter()
                    times.append((now - last) * 1e3)
                    last = now
                expected = sum(r + 1 for r in range(index * g, index * g + g)) / g
                got = float(vector[len(vector) // 2])
                if abs(got - expected) > 1e-4 * expected:
                    raise RuntimeError("rank %d: gloo mean %f, expected %f" % (rank, got, expected))
                cpu_ms = (time.process_time() - cpu) * 1e3 / iters
                lines.append("CELL %d %d %s" % (cell, rank, ",".join("%.6f" % t for t in times)))
                lines.append("CPU %d %d %.3f" % (cell, rank, cpu_ms))
                vector.fill_(float(rank + 1))
            # Ranks that sit a cell out must not run ahead into the next cell's groups.
            dist.barrier()
            cell += 1
    with open(os.path.join(out_dir, "rank-%d.txt" % rank), "w") as f:
        f.write("\n".join(lines) + "\n")
    dist.destroy_process_group()


def main():
    workers = int(sys.argv[1])
    sizes = [int(s) for s in sys.argv[2].split(",")]
    groups = [int(g) for g in sys.argv[3].split(",")]
    warmups = [int(w) for w in sys.argv[4].split(",")]
    iters, port, timeout_s = (int(a) for a in sys.argv[5:8])
    out_dir = sys.argv[8]
    if "DSSYNC_GLOO_RANK" in os.environ:
        ran = [int(os.environ["DSSYNC_GLOO_RANK"])]
        worker(ran[0], workers, sizes, groups, warmups, iters, port, timeout_s, out_dir,
               os.environ["DSSYNC_GLOO_ADDR"])
    else:
        ran = range(workers)
        import torch.multiprocessing as mp
        mp.start_processes(worker, args=(workers, sizes, groups, warmups, iters, port, timeout_s, out_dir),
                           nprocs=workers, join=True, start_method="spawn")
    for rank in ran:
        with open(os.path.join(out_dir, "rank-%d.txt" % rank)) as f:
            sys.stdout.write(f.read())


if __name__ == "__main__":
    main()
