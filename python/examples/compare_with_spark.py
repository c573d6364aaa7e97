#!/usr/bin/env python3
"""Score the rows a Spark model scored with the same model in PyTorch, and count agreement.

    python3 compare_with_spark.py --model DIR/model.pt --predictions SCORED [--min-agreement 0.999]

SCORED is what Spark's `write().json(...)` leaves: a folder of part-*.json files (or one such file)
with one JSON object per line holding the row's `features` as an array of numbers (Spark's
`vector_to_array`), the Spark model's `prediction` (class index) and, when present, `label` and
`probability` (an array: the Spark model's softmax). The features are reshaped to the input shape
in the file's dssync.json, run through torch.jit.load(model) in eval mode without gradients, and
the arg-max compared with Spark's prediction row by row.

Prints one JSON line: rows, agree, agreement, torch_accuracy and spark_accuracy (with labels),
max_probability_diff (with probabilities). Exit code 0 when agreement >= --min-agreement, 1 when
below it, 2 for unusable inputs.
"""

import argparse
import glob
import json
import os
import sys

import torch


def read_rows(path):
    """The JSON-lines rows of a Spark output folder (its part files in name order) or of one file."""
    files = sorted(glob.glob(os.path.join(path, "part-*.json"))) if os.path.isdir(path) else [path]
    if not files:
        raise SystemExit(f"compare_with_spark.py: no part-*.json files in {path}; "
                         "write the scored rows with Spark's write().json(...)")
    rows = []
    for name in files:
        with open(name, encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(prog="compare_with_spark.py", description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, help="TorchScript file, e.g. the saved model's model.pt")
    p.add_argument("--predictions", required=True, help="Spark's JSON-lines output: folder or file")
    p.add_argument("--features-col", default="features")
    p.add_argument("--prediction-col", default="prediction")
    p.add_argument("--probability-col", default="probability")
    p.add_argument("--label-col", default="label")
    p.add_argument("--min-agreement", type=float, default=0.999)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    rows = read_rows(args.predictions)
    if not rows or args.features_col not in rows[0] or args.prediction_col not in rows[0]:
        print(f"compare_with_spark.py: the rows need columns {args.features_col!r} and "
              f"{args.prediction_col!r}; found {sorted(rows[0]) if rows else 'no rows'}", file=sys.stderr)
        return 2
    extra = {"dssync.json": ""}
    model = torch.jit.load(args.model, _extra_files=extra)
    meta = json.loads(extra["dssync.json"]) if extra["dssync.json"] else {}
    shape = tuple(meta.get("input_shape", ()))
    x = torch.tensor([r[args.features_col] for r in rows], dtype=torch.float32)
    x = x.reshape(x.shape[0], *shape) if shape else x
    if meta.get("input_dtype") == "int64":
        x = x.long()
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model(x[i:i + 512]) for i in range(0, x.shape[0], 512)])
    torch_pred = logits.argmax(dim=1)
    spark_pred = torch.tensor([int(r[args.prediction_col]) for r in rows])
    agree = int((torch_pred == spark_pred).sum())
    result = {"rows": len(rows), "agree": agree, "agreement": agree / len(rows)}
    if args.label_col in rows[0]:
        labels = torch.tensor([int(r[args.label_col]) for r in rows])
        result["torch_accuracy"] = float((torch_pred == labels).float().mean())
        result["spark_accuracy"] = float((spark_pred == labels).float().mean())
    if args.probability_col in rows[0]:
        spark_prob = torch.tensor([r[args.probability_col] for r in rows], dtype=torch.float32)
        result["max_probability_diff"] = float((torch.softmax(logits, dim=1) - spark_prob).abs().max())
    print(json.dumps(result))
    if result["agreement"] < args.min_agreement:
        print(f"compare_with_spark.py: PyTorch agrees with Spark on {agree} of {len(rows)} rows, "
              f"below --min-agreement {args.min_agreement}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
