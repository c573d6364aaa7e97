#!/usr/bin/env python3
"""Run a TorchScript file on a features file and write its predictions.

    python3 predict.py --model net.pt --features test.bin --out pred.bin [--apply softmax]

Loads the model with torch.jit.load, puts it in eval mode and runs it without gradients in
batches of --batch-size. Features come from a DSDT file (see dsdata.py; its labels, if any, are
ignored) reshaped to the input shape in the file's dssync.json (or --input-shape). --apply
softmax|sigmoid turns logits into probabilities; none (default) writes the raw outputs.

Output by the extension of --out: .json writes {"rows": N, "outputs": K, "predictions":
[[...], ...]}; anything else writes a DSDT file whose "features" are the K predictions per row
and whose label_width is 0 (float32 little-endian, 24-byte header), so the Java side reads
predictions with the same reader as data.
"""

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from examples.dsdata import read_table, write_table  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="predict.py", description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, help="TorchScript file")
    p.add_argument("--features", required=True, help="DSDT file")
    p.add_argument("--out", required=True, help=".json or a DSDT output file")
    p.add_argument("--apply", choices=("none", "softmax", "sigmoid"), default="none")
    p.add_argument("--input-shape", help="one example's shape, if the file has no dssync.json")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    extra = {"dssync.json": ""}
    model = torch.jit.load(args.model, _extra_files=extra)
    meta = json.loads(extra["dssync.json"]) if extra["dssync.json"] else {}
    if args.input_shape:
        shape = tuple(int(d) for d in args.input_shape.split(","))
    else:
        shape = tuple(meta.get("input_shape", ()))
    features, _ = read_table(args.features)
    x = torch.from_numpy(features)
    x = x.reshape(x.shape[0], *shape) if shape else x
    if meta.get("input_dtype") == "int64":
        x = x.long()
    model.eval()
    outputs = []
    with torch.no_grad():
        for start in range(0, x.shape[0], args.batch_size):
            out = model(x[start:start + args.batch_size])
            if args.apply == "softmax":
                out = torch.softmax(out, dim=1)
            elif args.apply == "sigmoid":
                out = torch.sigmoid(out)
            outputs.append(out)
    pred = torch.cat(outputs).float()
    if args.out.endswith(".json"):
        with open(args.out, "w") as f:
            json.dump({"rows": pred.shape[0], "outputs": pred.shape[1],
                       "predictions": pred.tolist()}, f)
    else:
        write_table(args.out, pred.numpy())
    print(json.dumps({"rows": pred.shape[0], "outputs": pred.shape[1], "out": args.out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
