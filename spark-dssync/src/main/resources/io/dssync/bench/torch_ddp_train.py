"""The torch-ddp peer of `dssync bench train`: PyTorch DistributedDataParallel on the same task.

Run by the Java benchmark (io.dssync.bench.TrainBenchTorchDdp), never by hand. N processes on
127.0.0.1 over Gloo train our `cnn` architecture (io.dssync.models.SmallCnn) on the same
Fashion-MNIST subset with the same recipe as ours:
  - data: the first --train-limit / --test-limit examples of the IDX files (gzip or plain), pixels
    scaled to [0, 1] (value / 255), not standardized, like io.dssync.data.IdxImageDataset;
  - shards: rank r takes the examples whose index is r mod N (io.dssync.train.ShardedData);
  - batches: per rank, consecutive per-epoch permutations of its shard, step s taking positions
    [s*B, s*B+B) and wrapping across epochs (io.dssync.data.ShardBatcher; another RNG, same policy);
  - steps: max(1, examples // (N*B)) per epoch, times --epochs (io.dssync.train.DsSyncTrainer);
  - SGD: v = momentum*v + (g + wd*p); p -= lr*v (PyTorch's SGD is exactly ours), learning rate
    from the same schedule (io.dssync.train.LearningRateSchedule);
  - init: seeded with torch.manual_seed(seed); conv/linear weights He-uniform on fan-in, biases
    and BatchNorm beta 0, gamma 1 (io.dssync.replica.SeededInit; another RNG, same distribution).
DDP averages gradients, which for SGD with momentum and weight decay gives the same update as ours
`full` averaging parameters after each local step. BatchNorm running statistics: DDP broadcasts
rank 0's at every forward; ours averages them over workers.

Every --steps-per-stage steps and after the last step (ours evaluates after every stage), all ranks
meet at a barrier, rank 0 evaluates the whole test subset and prints
    EVAL <step> <elapsed_s_excluding_eval> <test_acc> <test_loss>
and all ranks meet again before the clock restarts. The clock starts after every rank has built
its data and model (after process spawn, torch import, rendezvous, data loading and DDP set-up)
and includes the stage-end barrier, but not the evaluation or the barrier that waits for it.
Rank 0 prints `TOTAL <steps>` first. Exits non-zero with a message on any error.
"""
import argparse
import datetime
import gzip
import math
import sys
import time


def read_idx(path, limit, is_images):
    """The first `limit` records (0 = all) of an IDX file: images as float32 N x 1 x H x W in [0, 1]."""
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    dims = raw[3]
    shape = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    if raw[2] != 0x08 or dims != (3 if is_images else 1):
        raise ValueError("%s is not an IDX file of unsigned bytes with %d dimensions" % (path, 3 if is_images else 1))
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)
    if limit > 0:
        data = data[:limit]
    if is_images:
        return (data.astype(np.float32) / 255.0).reshape(-1, 1, shape[1], shape[2])
    return data.astype(np.int64)


def small_cnn(height, width, classes):
    """io.dssync.models.SmallCnn: two (3x3 conv pad 1, BatchNorm, ReLU, 2x2 max pool) blocks of 32
    and 64 filters, flatten, Linear 128, ReLU, Linear classes. BatchNorm eps 1e-5 and momentum 0.1
    in PyTorch's convention are DJL's defaults (its momentum 0.9 weights the old running value)."""
    import torch.nn as nn

    def block(inputs, filters):
        return [nn.Conv2d(inputs, filters, 3, padding=1), nn.BatchNorm2d(filters), nn.ReLU(), nn.MaxPool2d(2)]

    flat = 64 * (height // 2 // 2) * (width // 2 // 2)
    model = nn.Sequential(*block(1, 32), *block(32, 64), nn.Flatten(), nn.Linear(flat, 128), nn.ReLU(),
                          nn.Linear(128, classes))
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.kaiming_uniform_(m.weight, a=0, nonlinearity="relu")  # U(+-sqrt(6 / fan_in))
            nn.init.zeros_(m.bias)
    return model


def learning_rate(kind, peak, warmup, total, step):
    """io.dssync.train.LearningRateSchedule.at(step)."""
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = 1.0 if total <= warmup else (step - warmup) / (total - warmup)
    if kind == "cosine":
        return 0.5 * peak * (1 + math.cos(math.pi * min(1.0, progress)))
    if kind == "step":
        return peak if progress < 0.5 else peak * 0.1 if progress < 0.75 else peak * 0.01
    return peak


class Batches:
    """io.dssync.data.ShardBatcher's policy: step s is positions [s*B, s*B+B) of the endless
    sequence of per-epoch permutations of the shard; epoch e's permutation is seeded by (seed, rank, e)."""

    def __init__(self, size, batch, seed, rank):
        self.size, self.batch, self.seed, self.rank = size, batch, seed, rank
        self.cache = {}

    def indices(self, step):
        import numpy as np
        out = np.empty(self.batch, dtype=np.int64)
        position = step * self.batch
        for j in range(self.batch):
            epoch, offset = divmod(position + j, self.size)
            out[j] = self.permutation(epoch)[offset]
        return out

    def permutation(self, epoch):
        import numpy as np
        if epoch not in self.cache:
            self.cache = {k: v for k, v in self.cache.items() if k >= epoch - 1}
            self.cache[epoch] = np.random.default_rng([self.seed & 0xFFFFFFFFFFFFFFFF, self.rank, epoch]).permutation(self.size)
        return self.cache[epoch]


def evaluate(model, images, labels):
    import torch
    import torch.nn.functional as F
    model.eval()
    correct, loss = 0, 0.0
    with torch.no_grad():
        for start in range(0, len(labels), 1000):
            x, y = images[start:start + 1000], labels[start:start + 1000]
            logits = model(x)
            loss += F.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(1) == y).sum().item()
    model.train()
    return correct / len(labels), loss / len(labels)


def worker(rank, a):
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel

    torch.set_num_threads(a.threads)  # like ai.djl.pytorch.num_threads = threads per worker
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % a.port, rank=rank, world_size=a.workers,
                            timeout=datetime.timedelta(seconds=a.timeout_s))
    train_x = read_idx(a.train_images, a.train_limit, True)
    train_y = read_idx(a.train_labels, a.train_limit, False)
    examples = len(train_y)
    if examples < a.workers:
        raise ValueError("%d training examples for %d workers" % (examples, a.workers))
    shard_x = torch.from_numpy(train_x[rank::a.workers].copy())
    shard_y = torch.from_numpy(train_y[rank::a.workers].copy())
    classes = int(train_y.max()) + 1 if a.classes <= 0 else a.classes
    if rank == 0:
        test_x = torch.from_numpy(read_idx(a.test_images, a.test_limit, True))
        test_y = torch.from_numpy(read_idx(a.test_labels, a.test_limit, False))

    torch.manual_seed(a.seed)  # every rank builds the same model; DDP also broadcasts rank 0's
    model = DistributedDataParallel(small_cnn(train_x.shape[2], train_x.shape[3], classes))
    optimizer = torch.optim.SGD(model.parameters(), lr=a.learning_rate, momentum=a.momentum,
                                weight_decay=a.weight_decay)
    batches = Batches(len(shard_y), a.batch_size, a.seed, rank)
    total = max(1, examples // (a.workers * a.batch_size)) * a.epochs
    if rank == 0:
        print("TOTAL %d" % total, flush=True)

    dist.barrier()
    elapsed = 0.0
    started = time.perf_counter()
    for step in range(total):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(a.lr_schedule, a.learning_rate, a.warmup_steps, total, step)
        idx = torch.from_numpy(batches.indices(step))
        loss = F.cross_entropy(model(shard_x[idx]), shard_y[idx])
        optimizer.zero_grad(set_to_none=False)
        loss.backward()
        optimizer.step()
        if (step + 1) % a.steps_per_stage == 0 or step + 1 == total:
            dist.barrier()  # the stage ends when every rank has finished its steps, as ours does
            elapsed += time.perf_counter() - started
            if rank == 0:
                acc, test_loss = evaluate(model.module, test_x, test_y)
                print("EVAL %d %.6f %.6f %.6f" % (step + 1, elapsed, acc, test_loss), flush=True)
            dist.barrier()  # the others wait for the evaluation, off the clock
            started = time.perf_counter()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("train-images", "train-labels", "test-images", "test-labels", "lr-schedule"):
        p.add_argument("--" + name, required=True)
    for name in ("workers", "threads", "train-limit", "test-limit", "batch-size", "epochs", "warmup-steps",
                 "steps-per-stage", "port", "timeout-s", "classes"):
        p.add_argument("--" + name, type=int, required=True)
    for name in ("learning-rate", "momentum", "weight-decay"):
        p.add_argument("--" + name, type=float, required=True)
    p.add_argument("--seed", type=int, required=True)
    a = p.parse_args()
    import torch.multiprocessing as mp
    mp.start_processes(worker, args=(a,), nprocs=a.workers, join=True, start_method="spawn")


if __name__ == "__main__":
    main()
