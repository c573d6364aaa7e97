"""The binary table format shared by the example scripts and the Java tests that call them.

A file holds `rows` examples, each a flat vector of `features` float32 values and a vector of
`label_width` float32 labels. Everything is little-endian:

    offset  size                          content
    0       4                             magic, the ASCII bytes "DSDT"
    4       4   uint32                    format version, 1
    8       8   uint64                    rows
    16      4   uint32                    features per row (the flattened input shape)
    20      4   uint32                    label_width per row (0 for a file of features only)
    24      4*rows*features               float32 features, row-major (row 0's features first)
    ...     4*rows*label_width            float32 labels, row-major, after all the features

The file size is exactly 24 + 4*rows*(features + label_width). Class labels are stored as exact
integer values (0.0, 1.0, ...) in a width-1 label; integer inputs (token ids) are stored as
floats too, exact up to 2^24. Predictions written by predict.py use the same layout with the
prediction vector as the "features" and label_width 0.
"""

import struct
from typing import Optional, Tuple

import numpy as np

MAGIC = b"DSDT"
VERSION = 1
HEADER = struct.Struct("<4sIQII")  # 24 bytes


def write_table(path: str, features: np.ndarray, labels: Optional[np.ndarray] = None) -> None:
    features = np.ascontiguousarray(features, dtype="<f4").reshape(len(features), -1)
    rows = features.shape[0]
    if labels is None:
        labels = np.zeros((rows, 0), dtype="<f4")
    labels = np.ascontiguousarray(labels, dtype="<f4").reshape(rows, -1)
    with open(path, "wb") as f:
        f.write(HEADER.pack(MAGIC, VERSION, rows, features.shape[1], labels.shape[1]))
        f.write(features.tobytes())
        f.write(labels.tobytes())


def read_table(path: str) -> Tuple[np.ndarray, np.ndarray]:
    """Returns (features (rows, features), labels (rows, label_width)) as float32 arrays."""
    with open(path, "rb") as f:
        head = f.read(HEADER.size)
        if len(head) != HEADER.size:
            raise ValueError(f"{path}: shorter than the {HEADER.size}-byte header")
        magic, version, rows, width, label_width = HEADER.unpack(head)
        if magic != MAGIC or version != VERSION:
            raise ValueError(f"{path}: not a DSDT version {VERSION} file (magic {magic!r}, "
                             f"version {version})")
        body = np.fromfile(f, dtype="<f4")
    expected = rows * (width + label_width)
    if body.size != expected:
        raise ValueError(f"{path}: header says {rows} rows of {width} features and {label_width} "
                         f"labels ({expected} floats) but the file holds {body.size} floats")
    split = rows * width
    return (body[:split].reshape(rows, width).astype(np.float32, copy=False),
            body[split:].reshape(rows, label_width).astype(np.float32, copy=False))
