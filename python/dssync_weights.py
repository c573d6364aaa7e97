#!/usr/bin/env python3
"""Read the trained weights of a spark-dssync model directory (``DIR/weights.safetensors``).

Needs only the standard library and ``torch`` (no ``safetensors`` package). The file is in the
safetensors layout: an unsigned 64-bit little-endian header length N, N bytes of JSON
(``{"name": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...,
"__metadata__": {...}}``), then the tensors' little-endian bytes. See docs/model-format.md.

    from dssync_weights import read_weights, module_state_dict
    weights, metadata = read_weights("model-dir/weights.safetensors")
    # A model trained from a TorchScript file written by dssync_export.py: its tensors carry the
    # exported wrapper's names ("net.fc1.weight"); drop the prefix for the original nn.Module.
    missing, unexpected = my_module.load_state_dict(module_state_dict(weights), strict=False)

Run as a script it prints each tensor's name and shape, then the metadata:
``python3 dssync_weights.py model-dir/weights.safetensors``.
"""

import array
import json
import struct
import sys
from collections import OrderedDict
from typing import Dict, Tuple

import torch

METADATA_KEY = "__metadata__"
WRAPPED_PREFIX = "net."  # dssync_export.py makes the user's module the attribute `net`
_DTYPES = {"F32": torch.float32}


def read_weights(path: str) -> Tuple["OrderedDict[str, torch.Tensor]", Dict[str, str]]:
    """The file's tensors by name, in the order of their bytes, and its metadata (strings)."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError(f"{path}: {len(blob)} bytes, too short for a safetensors file")
    (header_len,) = struct.unpack("<Q", blob[:8])
    if 8 + header_len > len(blob):
        raise ValueError(f"{path}: header of {header_len} bytes runs past the end of the file")
    header = json.loads(blob[8:8 + header_len].decode("utf-8"))
    data = memoryview(blob)[8 + header_len:]
    metadata = header.pop(METADATA_KEY, {}) or {}
    tensors = OrderedDict()
    for name, entry in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        dtype = _DTYPES.get(entry["dtype"])
        if dtype is None:
            raise ValueError(f"{path}: tensor {name} has dtype {entry['dtype']}; this reader knows F32")
        begin, end = entry["data_offsets"]
        shape = [int(d) for d in entry["shape"]]
        if not 0 <= begin <= end <= len(data):
            raise ValueError(f"{path}: tensor {name} has offsets {begin}..{end} outside the data")
        count = 1
        for d in shape:
            count *= d
        if end - begin != count * 4:
            raise ValueError(f"{path}: tensor {name} of shape {shape} has {end - begin} bytes")
        if count == 0:
            tensors[name] = torch.empty(shape, dtype=dtype)
            continue
        raw = bytearray(data[begin:end])
        if sys.byteorder != "little":  # the file is little-endian whatever machine wrote it
            swapped = array.array("f")
            swapped.frombytes(bytes(raw))
            swapped.byteswap()
            raw = bytearray(swapped.tobytes())
        tensors[name] = torch.frombuffer(raw, dtype=dtype).reshape(shape)
    return tensors, metadata


def module_state_dict(weights: "Dict[str, torch.Tensor]",
                      prefix: str = WRAPPED_PREFIX) -> "OrderedDict[str, torch.Tensor]":
    """The tensors with the export wrapper's prefix removed, for the user's own nn.Module.

    Integer buffers (BatchNorm's num_batches_tracked) are not trained and not in the file: load
    with strict=False and expect only those among the missing keys."""
    return OrderedDict((k[len(prefix):] if k.startswith(prefix) else k, v) for k, v in weights.items())


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: dssync_weights.py DIR/weights.safetensors", file=sys.stderr)
        return 2
    weights, metadata = read_weights(argv[1])
    for name, tensor in weights.items():
        print(f"{name}\t{list(tensor.shape)}")
    print(json.dumps(metadata, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
