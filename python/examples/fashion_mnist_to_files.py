#!/usr/bin/env python3
"""Convert Fashion-MNIST (or MNIST) IDX files into DSDT train/test files (see dsdata.py).

    python3 fashion_mnist_to_files.py --idx-dir DIR --out-dir DIR [--limit-train N] [--limit-test N]

DIR holds train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and
t10k-labels-idx1-ubyte, each optionally .gz (datasets/fashion-mnist/README.md says where to get
them). Pixels become value / 255 in [0, 1], not standardized, as the Java loader does, so both
sides train on the same numbers; labels are the class index as a float (label width 1).
"""

import argparse
import gzip
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from examples.dsdata import write_table  # noqa: E402


def read_idx(directory, name):
    for candidate in (name, name + ".gz"):
        path = os.path.join(directory, candidate)
        if os.path.exists(path):
            opener = gzip.open if candidate.endswith(".gz") else open
            with opener(path, "rb") as f:
                data = f.read()
            magic, count = struct.unpack(">II", data[:8])
            if magic == 2051:
                rows, cols = struct.unpack(">II", data[8:16])
                return np.frombuffer(data, np.uint8, offset=16).reshape(count, rows * cols)
            if magic == 2049:
                return np.frombuffer(data, np.uint8, offset=8).reshape(count, 1)
            raise SystemExit(f"{path}: not an IDX image or label file (magic {magic})")
    raise SystemExit(f"{name}[.gz] not found in {directory}")


def main(argv=None):
    p = argparse.ArgumentParser(prog="fashion_mnist_to_files.py", description=__doc__.splitlines()[0])
    p.add_argument("--idx-dir", required=True)
    p.add_argument("--out-dir", required=True)
    p.add_argument("--limit-train", type=int, default=None, help="keep the first N training rows")
    p.add_argument("--limit-test", type=int, default=None, help="keep the first N test rows")
    args = p.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    for split, prefix, limit in (("train", "train", args.limit_train), ("test", "t10k", args.limit_test)):
        images = read_idx(args.idx_dir, f"{prefix}-images-idx3-ubyte")[:limit]
        labels = read_idx(args.idx_dir, f"{prefix}-labels-idx1-ubyte")[:limit]
        write_table(os.path.join(args.out_dir, f"fashion-{split}.bin"),
                    images.astype(np.float32) / 255.0, labels.astype(np.float32))
        print(f"{split}: {len(images)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
