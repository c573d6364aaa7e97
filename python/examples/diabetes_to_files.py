#!/usr/bin/env python3
"""Write sklearn's diabetes data (442 rows, 10 features, 1 target) as train/test files.

    python3 diabetes_to_files.py --out-dir DIR [--test-fraction 0.2] [--seed 42] [--raw-target]

The data comes from the copy bundled with the installed scikit-learn (load_diabetes reads it
offline); nothing is downloaded and nothing is committed.

Writes into DIR:
- diabetes-train.bin, diabetes-test.bin: DSDT files (see dsdata.py), 10 features, label width 1;
- diabetes-train.csv, diabetes-test.csv: the same numbers with a header (10 feature names, target);
- diabetes.json: the split and the standardization statistics.

The split is a permutation drawn with numpy's default_rng(seed); the first
round(rows * test_fraction) rows of it are the test set. Features are the raw (unscaled)
measurements standardized with the TRAINING split's mean and standard deviation (ddof 0), so the
test set leaks nothing into them. The TARGET IS STANDARDIZED TOO by default (train mean about
152, std about 77, raw range 25..346): with a target of that size an MSE gradient is large
enough to blow up SGD at learning rates that suit the standardized features. R² is the same
either way; RMSE and MAE are in standard deviations of the target: multiply by
diabetes.json's target_std to get disease-progression units, or pass --raw-target to keep it raw.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from examples.dsdata import write_table  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="diabetes_to_files.py", description=__doc__.splitlines()[0])
    p.add_argument("--out-dir", required=True)
    p.add_argument("--test-fraction", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--raw-target", action="store_true", help="keep the target unstandardized")
    args = p.parse_args(argv)
    from sklearn.datasets import load_diabetes

    data = load_diabetes(scaled=False)
    x, y = data.data.astype(np.float64), data.target.astype(np.float64).reshape(-1, 1)
    order = np.random.default_rng(args.seed).permutation(len(x))
    n_test = int(round(len(x) * args.test_fraction))
    test, train = order[:n_test], order[n_test:]
    mean, std = x[train].mean(0), x[train].std(0)
    x = (x - mean) / std
    t_mean, t_std = float(y[train].mean()), float(y[train].std())
    if not args.raw_target:
        y = (y - t_mean) / t_std
    os.makedirs(args.out_dir, exist_ok=True)
    names = list(data.feature_names)
    for split, rows in (("train", train), ("test", test)):
        write_table(os.path.join(args.out_dir, f"diabetes-{split}.bin"), x[rows], y[rows])
        np.savetxt(os.path.join(args.out_dir, f"diabetes-{split}.csv"),
                   np.hstack([x[rows], y[rows]]).astype(np.float32), delimiter=",", fmt="%.7g",
                   header=",".join(names + ["target"]), comments="")
    meta = {"rows": {"train": len(train), "test": len(test)}, "seed": args.seed,
            "test_fraction": args.test_fraction, "features": names,
            "feature_mean": mean.tolist(), "feature_std": std.tolist(),
            "target_standardized": not args.raw_target, "target_mean": t_mean, "target_std": t_std}
    with open(os.path.join(args.out_dir, "diabetes.json"), "w") as f:
        json.dump(meta, f, indent=2)
    print(json.dumps({"out_dir": args.out_dir, "train": len(train), "test": len(test),
                      "target_standardized": not args.raw_target}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
