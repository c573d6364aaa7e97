#!/usr/bin/env python3
"""Single-process eager PyTorch training: the reference the Java engine's results are compared with.

Train a TorchScript file (e.g. one written by dssync_export.py) or an eager module, then print
JSON metrics on a held-out file:

    python3 train_reference.py --model net.pt --train train.bin --test test.bin \\
        --epochs 3 --batch-size 64 --lr 0.05 --optimizer sgd --momentum 0.9 \\
        --loss cross_entropy --seed 1 [--no-shuffle] [--save trained.pt]
    python3 train_reference.py --module examples.regression_mlp:RegressionMlp --args '{"inputs": 10}' \\
        --input-shape 10 --train train.bin --test test.bin --loss mse ...

Or measure eager training throughput on random data (one thread unless --threads says otherwise):

    python3 train_reference.py --throughput --module examples.residual_cnn:ResidualCnn \\
        --input-shape 1,28,28 --output-size 10 --loss cross_entropy --batch-size 64

Data files use the DSDT layout documented in dsdata.py: a 24-byte little-endian header ("DSDT",
version 1, uint64 rows, uint32 features, uint32 label_width), then float32 features row-major,
then float32 labels row-major. Features are reshaped to (batch, *input_shape); the input shape
comes from the file's dssync.json, else --input-shape, else stays flat.

Training semantics (what a Java comparison must match): the loss is the mean over the batch;
each epoch visits a permutation of the rows drawn from a generator seeded with --seed (or the file
order with --no-shuffle) in batches of --batch-size, the last batch possibly smaller; the model is
in train mode while training and in eval mode for the metrics. Losses: mse, l1, huber (delta 1),
cross_entropy (labels are class indices in label column 0), or file (the model's dssync_loss).
Metrics: classification reports loss and accuracy; regression reports loss, r2 (mean over
outputs, as sklearn's uniform average), rmse and mae (over all outputs), in label units.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # dssync_export and the examples package

import dssync_export  # noqa: E402
from examples.dsdata import read_table  # noqa: E402

LOSSES = ("mse", "l1", "huber", "cross_entropy", "file")


class UsageError(Exception):
    """A mistake in the command line or the data: printed in one line, exit code 2."""


def load_model(args):
    """Returns (model, metadata or None)."""
    if args.model:
        extra = {dssync_export.EXTRA_FILE: ""}
        model = torch.jit.load(args.model, _extra_files=extra)
        meta = json.loads(extra[dssync_export.EXTRA_FILE]) if extra[dssync_export.EXTRA_FILE] else None
        return model, meta
    dssync_export.add_module_paths(args.module_path)
    torch.manual_seed(args.seed)  # the eager module's initial weights
    return dssync_export.build_module(args.module, dssync_export.parse_args_json(args.args)), None


def input_shape(args, meta, width):
    if args.input_shape:
        return dssync_export.parse_shape(args.input_shape)
    if meta:
        return tuple(meta["input_shape"])
    return (width,)


def to_input(features, shape, dtype):
    x = torch.from_numpy(features).reshape(features.shape[0], *shape)
    return x.long() if dtype == "int64" else x


def loss_value(model, kind, output, label):
    if kind == "cross_entropy":
        return F.cross_entropy(output, label[:, 0].long())
    if kind == "file":
        return model.dssync_loss(output, label)
    if output.shape != label.shape:
        raise UsageError(f"output {tuple(output.shape)} and labels "
                         f"{tuple(label.shape)} differ; {kind} needs one label per output")
    return {"mse": F.mse_loss, "l1": F.l1_loss, "huber": F.huber_loss}[kind](output, label)


def make_optimizer(args, model):
    params = [p for p in model.parameters() if p.requires_grad]
    if args.optimizer == "adam":
        return torch.optim.Adam(params, lr=args.lr, weight_decay=args.weight_decay)
    return torch.optim.SGD(params, lr=args.lr, momentum=args.momentum,
                           weight_decay=args.weight_decay)


def evaluate(model, kind, x, y, batch_size=1024):
    model.eval()
    outputs = []
    with torch.no_grad():
        for start in range(0, x.shape[0], batch_size):
            outputs.append(model(x[start:start + batch_size]))
    out = torch.cat(outputs)
    label = torch.from_numpy(y)
    with torch.no_grad():
        metrics = {"loss": loss_value(model, kind, out, label).item(), "rows": int(x.shape[0])}
    if kind == "cross_entropy" or (kind == "file" and label.shape[1] == 1 and out.shape[1] > 1):
        metrics["accuracy"] = (out.argmax(1) == label[:, 0].long()).double().mean().item()
    else:
        err = (out - label).double()
        centred = label.double() - label.double().mean(0)
        r2_per_output = 1 - (err ** 2).sum(0) / (centred ** 2).sum(0)
        metrics.update(r2=r2_per_output.mean().item(), rmse=err.pow(2).mean().sqrt().item(),
                       mae=err.abs().mean().item())
    return metrics


def train(args):
    torch.set_num_threads(args.threads)
    model, meta = load_model(args)
    if args.save and not isinstance(model, torch.jit.ScriptModule):
        raise UsageError("--save needs a TorchScript --model (export the module with "
                         "dssync_export.py first)")
    dtype = args.input_dtype or (meta or {}).get("input_dtype", "float32")
    train_x, train_y = read_table(args.train)
    shape = input_shape(args, meta, train_x.shape[1])
    x, y = to_input(train_x, shape, dtype), torch.from_numpy(train_y)
    optimizer = make_optimizer(args, model)
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)  # dropout
    history = []
    started = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        model.train()
        order = torch.randperm(x.shape[0], generator=gen) if args.shuffle else torch.arange(x.shape[0])
        total, count = 0.0, 0
        for start in range(0, x.shape[0], args.batch_size):
            idx = order[start:start + args.batch_size]
            optimizer.zero_grad()
            loss = loss_value(model, args.loss, model(x[idx]), y[idx])
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
            count += len(idx)
        history.append({"epoch": epoch, "train_loss": total / count})
    seconds = time.perf_counter() - started
    result = {"epochs": history, "train_seconds": seconds, "torch_version": torch.__version__,
              "threads": args.threads}
    if args.test:
        test_x, test_y = read_table(args.test)
        result["test"] = evaluate(model, args.loss, to_input(test_x, shape, dtype), test_y)
    if args.save:
        model.eval()
        # keep dssync.json so the trained file is again a file the engine and predict.py read
        extra = {dssync_export.EXTRA_FILE: json.dumps(meta, indent=2)} if meta else {}
        torch.jit.save(model, args.save, _extra_files=extra)
    print(json.dumps(result))


def throughput(args):
    torch.set_num_threads(args.threads)
    model, meta = load_model(args)
    dtype = args.input_dtype or (meta or {}).get("input_dtype", "float32")
    if not (args.input_shape or meta) or not (args.output_size or meta):
        raise UsageError("--throughput with --module needs --input-shape "
                         "and --output-size")
    shape = input_shape(args, meta, 0)
    outputs = args.output_size or meta["output_size"]
    gen = torch.Generator().manual_seed(args.seed)
    b = args.batch_size
    x = (torch.randint(0, 2, (b, *shape), generator=gen) if dtype == "int64"
         else torch.randn((b, *shape), generator=gen))
    y = (torch.randint(0, outputs, (b, 1), generator=gen).float() if args.loss == "cross_entropy"
         else torch.randn((b, outputs), generator=gen))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    model.train()
    times = []
    for step in range(args.warmup + args.steps):
        if step == args.warmup:
            cpu0 = time.process_time()
        t0 = time.perf_counter()
        optimizer.zero_grad()
        loss_value(model, args.loss, model(x), y).backward()
        optimizer.step()
        if step >= args.warmup:
            times.append(time.perf_counter() - t0)
    # CPU time as well as wall time: on a shared machine the wall time includes waiting for a
    # core, the process's CPU time (one thread) much less so.
    cpu_per_step = (time.process_time() - cpu0) / args.steps
    mean = float(np.mean(times))
    print(json.dumps({"mode": "throughput", "batch_size": b, "threads": args.threads,
                      "steps": args.steps, "warmup": args.warmup, "ms_per_step": mean * 1e3,
                      "median_ms_per_step": float(np.median(times)) * 1e3,
                      "samples_per_s": b / mean, "cpu_ms_per_step": cpu_per_step * 1e3,
                      "samples_per_cpu_s": b / cpu_per_step, "torch_version": torch.__version__}))


def parser():
    p = argparse.ArgumentParser(prog="train_reference.py", description=__doc__.splitlines()[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", metavar="FILE", help="TorchScript file (torch.jit.load)")
    src.add_argument("--module", metavar="PKG.MOD:NAME", help="eager nn.Module class or factory")
    p.add_argument("--args", metavar="JSON", help="keyword arguments for --module")
    p.add_argument("--module-path", action="append", default=[], metavar="DIR")
    p.add_argument("--input-shape", metavar="D1,D2,...", help="one example's shape (default: the "
                   "file's dssync.json, else flat)")
    p.add_argument("--input-dtype", choices=("float32", "int64"))
    p.add_argument("--output-size", type=int, help="output width (--throughput with --module)")
    p.add_argument("--train", metavar="FILE", help="DSDT training file")
    p.add_argument("--test", metavar="FILE", help="DSDT held-out file for the metrics")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--optimizer", choices=("sgd", "adam"), default="sgd")
    p.add_argument("--momentum", type=float, default=0.9, help="SGD momentum (default 0.9)")
    p.add_argument("--weight-decay", type=float, default=0.0)
    p.add_argument("--loss", choices=LOSSES, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shuffle", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (default 1)")
    p.add_argument("--save", metavar="FILE", help="write the trained TorchScript model here")
    p.add_argument("--throughput", action="store_true",
                   help="time forward+backward+SGD steps on random data instead of training")
    p.add_argument("--steps", type=int, default=30, help="timed steps for --throughput")
    p.add_argument("--warmup", type=int, default=5, help="untimed steps for --throughput")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        if args.throughput:
            throughput(args)
        else:
            if not args.train:
                raise UsageError("--train FILE is required (or --throughput)")
            train(args)
    except (dssync_export.ExportError, UsageError) as e:
        print(f"train_reference: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
