"""Tests of dssync_weights.py, the reader of a model directory's weights.safetensors.

Run from the repository root: python3 -m unittest discover -s python/tests
"""

import json
import os
import struct
import sys
import tempfile
import unittest

import torch
from torch import nn

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYTHON_DIR)

from dssync_weights import module_state_dict, read_weights  # noqa: E402


def write_file(path, tensors, metadata, pad=0):
    """A safetensors file written straight from the layout's description, independent of the Java writer."""
    header, data, offset = {"__metadata__": metadata}, b"", 0
    for name, t in tensors:
        raw = struct.pack("<%df" % t.numel(), *t.flatten().tolist())
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        data += raw
        offset += len(raw)
    text = json.dumps(header).encode("utf-8") + b" " * pad
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


class ReadWeightsTest(unittest.TestCase):
    def test_names_shapes_values_and_metadata_come_back(self):
        tensors = [("net.fc.weight", torch.arange(6, dtype=torch.float32).reshape(2, 3)),
                   ("net.fc.bias", torch.tensor([-1.5, 2.25])),
                   ("net.scale", torch.tensor(3.0)),
                   ("net.empty", torch.empty(0, 4))]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "weights.safetensors")
            write_file(path, tensors, {"format": "pt", "dssync.loss": "cross-entropy"}, pad=5)
            weights, metadata = read_weights(path)
        self.assertEqual([n for n, _ in tensors], list(weights))
        for name, t in tensors:
            self.assertEqual(t.shape, weights[name].shape, name)
            self.assertTrue(torch.equal(t, weights[name]), name)
        self.assertEqual("cross-entropy", metadata["dssync.loss"])

    def test_the_wrapper_prefix_goes_so_the_users_module_loads_the_weights(self):
        module = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
        trained = {"net." + k: torch.randn_like(v) for k, v in module.state_dict().items()
                   if v.dtype == torch.float32}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "weights.safetensors")
            write_file(path, list(trained.items()), {})
            weights, _ = read_weights(path)
        missing, unexpected = module.load_state_dict(module_state_dict(weights), strict=False)
        # BatchNorm fills in its own num_batches_tracked on some PyTorch versions; nothing else may miss.
        self.assertTrue(set(missing) <= {"1.num_batches_tracked"}, missing)
        self.assertEqual([], unexpected)
        self.assertTrue(torch.equal(trained["net.0.weight"], module[0].weight.detach()))

    def test_a_truncated_file_is_refused_naming_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "weights.safetensors")
            write_file(path, [("w", torch.ones(4))], {})
            with open(path, "rb") as f:
                blob = f.read()
            with open(path, "wb") as f:
                f.write(blob[:-4])
            with self.assertRaisesRegex(ValueError, "weights.safetensors: tensor w"):
                read_weights(path)


if __name__ == "__main__":
    unittest.main()
