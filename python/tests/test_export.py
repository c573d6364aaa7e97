"""Tests of dssync_export.py and the example scripts.

Run from the repository root: python3 -m unittest discover -s python/tests
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

import torch
from torch import Tensor, nn

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYTHON_DIR)

import dssync_export  # noqa: E402
from dssync_export import ExportError, export  # noqa: E402
from examples import compare_with_spark, diabetes_to_files, predict, train_reference  # noqa: E402
from examples.dsdata import read_table, write_table  # noqa: E402
from examples.regression_mlp import RegressionMlp  # noqa: E402
from examples.residual_cnn import ResidualCnn  # noqa: E402


def label_smoothing_free_ce(output: Tensor, label: Tensor) -> Tensor:
    """A user loss as the helper expects it: float labels (batch, 1) holding class indices."""
    return nn.functional.cross_entropy(output, label[:, 0].long())


def not_scriptable_loss(output: Tensor, label: Tensor) -> Tensor:
    return torch.from_numpy(((output - label) ** 2).detach().numpy()).mean()


def float_returning_loss(output: Tensor, label: Tensor) -> float:
    return ((output - label) ** 2).mean().item()


def load(path):
    extra = {"dssync.json": ""}
    module = torch.jit.load(path, _extra_files=extra)
    return module, json.loads(extra["dssync.json"])


class ExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.cnn = ResidualCnn(classes=10)
        cls.cnn_path = os.path.join(cls.tmp.name, "cnn.pt")
        cls.cnn_meta = export(cls.cnn, cls.cnn_path, (1, 28, 28), 10,
                              loss_fn=label_smoothing_free_ce)
        cls.mlp = RegressionMlp(inputs=10, hidden=32, outputs=1)
        cls.mlp_path = os.path.join(cls.tmp.name, "mlp.pt")
        cls.mlp_meta = export(cls.mlp, cls.mlp_path, (10,), 1)
        cls.x = torch.randn(8, 1, 28, 28)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def expected_cnn_buffers(self):
        return [n for n, b in ResidualCnn().named_buffers() if b.dtype == torch.float32]

    # --- metadata ---------------------------------------------------------------------------

    def test_metadata_in_zip_under_archive_extra(self):
        with zipfile.ZipFile(self.cnn_path) as z:
            names = z.namelist()
            self.assertIn("cnn/extra/dssync.json", names)
            meta = json.loads(z.read("cnn/extra/dssync.json"))
        self.assertEqual(meta, self.cnn_meta)
        self.assertEqual(meta["format"], 1)
        self.assertEqual(meta["input_shape"], [1, 28, 28])
        self.assertEqual(meta["input_dtype"], "float32")
        self.assertEqual(meta["output_size"], 10)
        self.assertTrue(meta["has_loss"])
        self.assertEqual(meta["torch_version"], torch.__version__)
        self.assertEqual(meta["buffers"], ["net." + n for n in self.expected_cnn_buffers()])
        self.assertEqual(len(meta["buffers"]), 10)  # 5 BatchNorms x (running_mean, running_var)
        self.assertFalse(any("num_batches_tracked" in n for n in meta["buffers"]))

    def test_mlp_metadata_and_no_buffers(self):
        module, meta = load(self.mlp_path)
        self.assertEqual(meta["buffers"], [])
        self.assertFalse(meta["has_loss"])
        self.assertEqual(meta["input_shape"], [10])
        self.assertEqual(module.dssync_buffers(), [])
        self.assertFalse(hasattr(module, "dssync_loss"))

    # --- buffers ----------------------------------------------------------------------------

    def test_buffers_follow_file_order_and_alias_named_buffers(self):
        module, meta = load(self.cnn_path)
        buffers = module.dssync_buffers()
        named = dict(module.named_buffers())
        self.assertEqual(len(buffers), len(meta["buffers"]))
        for name, buf in zip(meta["buffers"], buffers):
            self.assertEqual(buf.data_ptr(), named[name].data_ptr(), name)
            self.assertEqual(buf.shape, named[name].shape, name)

    def test_training_forward_changes_returned_buffers(self):
        module, _ = load(self.cnn_path)
        buffers = module.dssync_buffers()  # fetched once, before the forward
        before = [b.clone() for b in buffers]
        module.train()
        module(self.x)
        for b, old in zip(buffers, before):
            self.assertFalse(torch.equal(b, old), "running statistics did not move")
        # and a fresh call sees the same values
        for b, again in zip(buffers, module.dssync_buffers()):
            self.assertTrue(torch.equal(b, again))

    def test_eval_forward_leaves_buffers(self):
        module, _ = load(self.cnn_path)
        before = [b.clone() for b in module.dssync_buffers()]
        module.eval()
        module(self.x)
        for b, old in zip(module.dssync_buffers(), before):
            self.assertTrue(torch.equal(b, old))

    def test_writing_buffers_changes_eval_forward(self):
        module, meta = load(self.cnn_path)
        module.eval()
        with torch.no_grad():
            before = module(self.x)
            for i, b in enumerate(module.dssync_buffers()):
                b.copy_(torch.full_like(b, 0.5 if i % 2 == 0 else 2.0))
            after = module(self.x)
        self.assertGreater((after - before).abs().max().item(), 1e-3)
        # the written values are the ones the module uses: an eager copy given the same state
        # computes the same output
        eager = ResidualCnn(classes=10)
        state = {k[len("net."):]: v for k, v in module.state_dict().items()}
        eager.load_state_dict(state)
        eager.eval()
        with torch.no_grad():
            self.assertLessEqual((eager(self.x) - after).abs().max().item(), 1e-5)
        for name in meta["buffers"]:
            value = dict(module.named_buffers())[name]
            self.assertTrue(torch.all((value == 0.5) | (value == 2.0)), name)

    # --- round trip and modes ---------------------------------------------------------------

    def test_round_trip_eval_matches_eager(self):
        module, _ = load(self.cnn_path)
        module.eval()
        self.cnn.eval()
        with torch.no_grad():
            got, want = module(self.x), self.cnn(self.x)
        self.assertEqual(tuple(got.shape), (8, 10))
        self.assertLessEqual((got - want).abs().max().item(), 1e-5)

    def test_script_switches_to_training_mode(self):
        module, _ = load(self.cnn_path)
        module.train()
        torch.manual_seed(3)
        a = module(self.x)
        b = module(self.x)
        # dropout draws differ and batch statistics replace running statistics
        self.assertGreater((a - b).abs().max().item(), 1e-4)
        module.eval()
        with torch.no_grad():
            self.assertLessEqual((module(self.x) - module(self.x)).abs().max().item(), 0.0)

    def test_file_saved_in_eval_mode_and_parameters_trainable(self):
        module, _ = load(self.cnn_path)
        self.assertFalse(module.training)
        params = list(module.parameters())
        self.assertEqual(len(params), len(list(self.cnn.parameters())))
        self.assertTrue(all(p.requires_grad for p in params))

    def test_export_restores_module_mode(self):
        m = RegressionMlp()
        m.train()
        export(m, os.path.join(self.tmp.name, "mode.pt"), (10,), 1)
        self.assertTrue(m.training)

    # --- loss -------------------------------------------------------------------------------

    def test_custom_loss_present_and_callable(self):
        module, _ = load(self.cnn_path)
        module.train()
        out = module(self.x)
        label = torch.tensor([[float(i % 10)] for i in range(8)])
        loss = module.dssync_loss(out, label)
        self.assertEqual(loss.dim(), 0)
        want = nn.functional.cross_entropy(out, label[:, 0].long())
        self.assertAlmostEqual(loss.item(), want.item(), places=5)
        loss.backward()
        self.assertTrue(all(p.grad is not None for p in module.parameters()))

    def test_loss_module_class(self):
        path = os.path.join(self.tmp.name, "mlp-mse.pt")
        meta = export(RegressionMlp(), path, (10,), 1, loss_fn=nn.MSELoss())
        module, _ = load(path)
        self.assertTrue(meta["has_loss"])
        out, label = torch.zeros(4, 1), torch.ones(4, 1)
        self.assertAlmostEqual(module.dssync_loss(out, label).item(), 1.0, places=6)

    def test_unscriptable_loss_refused(self):
        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp(), os.path.join(self.tmp.name, "bad-loss.pt"), (10,), 1,
                   loss_fn=not_scriptable_loss)
        self.assertIn("not scriptable", str(ctx.exception))
        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp(), os.path.join(self.tmp.name, "bad-loss.pt"), (10,), 1,
                   loss_fn=float_returning_loss)
        self.assertIn("-> Tensor", str(ctx.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "bad-loss.pt")))

    def test_loss_returning_vector_refused(self):
        def per_example(output: Tensor, label: Tensor) -> Tensor:
            return (output - label).pow(2).sum(1)

        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp(), os.path.join(self.tmp.name, "vec-loss.pt"), (10,), 1,
                   loss_fn=per_example)
        self.assertIn("scalar", str(ctx.exception))

    # --- refusals ---------------------------------------------------------------------------

    def test_traced_module_refused(self):
        traced = torch.jit.trace(ResidualCnn().eval(), torch.randn(2, 1, 28, 28))
        with self.assertRaises(ExportError) as ctx:
            export(traced, os.path.join(self.tmp.name, "traced.pt"), (1, 28, 28), 10)
        message = str(ctx.exception)
        self.assertIn("freezes the train/eval mode", message)
        self.assertIn("pass the nn.Module so it is scripted", message)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "traced.pt")))

    def test_module_with_traced_submodule_refused(self):
        outer = nn.Sequential(torch.jit.trace(nn.Linear(10, 4), torch.randn(2, 10)), nn.ReLU(),
                              nn.Linear(4, 1))
        with self.assertRaises(ExportError) as ctx:
            export(outer, os.path.join(self.tmp.name, "traced-sub.pt"), (10,), 1)
        self.assertIn("torch.jit.trace", str(ctx.exception))

    def test_wrong_output_size(self):
        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp(), os.path.join(self.tmp.name, "wrong.pt"), (10,), 3)
        message = str(ctx.exception)
        self.assertIn("(3, 1)", message)  # what forward returned
        self.assertIn("(3, 3)", message)  # what --output-size asked for
        self.assertIn("--output-size", message)

    def test_wrong_input_shape(self):
        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp(), os.path.join(self.tmp.name, "shape.pt"), (12,), 1)
        self.assertIn("--input-shape", str(ctx.exception))

    def test_not_a_module(self):
        with self.assertRaises(ExportError):
            export(lambda x: x, os.path.join(self.tmp.name, "fn.pt"), (10,), 1)

    def test_float64_model_refused(self):
        with self.assertRaises(ExportError) as ctx:
            export(RegressionMlp().double(), os.path.join(self.tmp.name, "f64.pt"), (10,), 1)
        self.assertIn(".float()", str(ctx.exception))

    def test_name_pytorch_cannot_read_back_is_a_user_error(self):
        # torch.jit.save writes a submodule named "in" as `in : ...`, which torch.jit.load
        # cannot parse; the round trip turns that into a message instead of a broken file.
        net = nn.Sequential()
        net.add_module("in", nn.Linear(10, 1))
        path = os.path.join(self.tmp.name, "keyword.pt")
        with self.assertRaises(ExportError) as ctx:
            export(net, path, (10,), 1)
        self.assertIn("cannot read back", str(ctx.exception))
        self.assertFalse(os.path.exists(path))
        self.assertEqual([n for n in os.listdir(self.tmp.name) if n.startswith(".dssync")], [])

    def test_int64_input(self):
        class Bag(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(50, 8)
                self.out = nn.Linear(8, 3)

            def forward(self, ids: Tensor) -> Tensor:
                return self.out(self.embedding(ids).mean(1))

        path = os.path.join(self.tmp.name, "bag.pt")
        meta = export(Bag(), path, (6,), 3, input_dtype="int64")
        self.assertEqual(meta["input_dtype"], "int64")
        module, _ = load(path)
        self.assertEqual(tuple(module(torch.randint(0, 50, (4, 6))).shape), (4, 3))
        with self.assertRaises(ExportError):
            export(Bag(), path, (6,), 3, input_dtype="int32")

    def test_parse_shape(self):
        self.assertEqual(dssync_export.parse_shape("1,28,28"), (1, 28, 28))
        self.assertEqual(dssync_export.parse_shape(" (3, 32, 32) "), (3, 32, 32))
        self.assertEqual(dssync_export.parse_shape("10"), (10,))
        for bad in ("", "a,b", "1;28", "0,28", "-1"):
            with self.assertRaises(ExportError, msg=bad):
                dssync_export.parse_shape(bad)

    def test_buffer_path_for_non_identifier_names(self):
        net = nn.Sequential()
        net.add_module("first", nn.Linear(10, 4))
        net.add_module("norm-1", nn.BatchNorm1d(4))  # not an identifier: reached by getattr
        net.add_module("out", nn.Linear(4, 1))
        path = os.path.join(self.tmp.name, "odd.pt")
        meta = export(net, path, (10,), 1)
        self.assertEqual(meta["buffers"], ["net.norm-1.running_mean", "net.norm-1.running_var"])
        module, _ = load(path)
        named = dict(module.named_buffers())
        self.assertEqual([b.data_ptr() for b in module.dssync_buffers()],
                         [named[n].data_ptr() for n in meta["buffers"]])


class CommandLineTest(unittest.TestCase):
    """The CLI: exit codes and one-line messages, run as a user would."""

    def run_cli(self, *args):
        return subprocess.run([sys.executable, os.path.join(PYTHON_DIR, "dssync_export.py"),
                               "--module-path", PYTHON_DIR, *args],
                              capture_output=True, text=True, timeout=120)

    def test_ok_and_user_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "mlp.pt")
            ok = self.run_cli("--module", "examples.regression_mlp:RegressionMlp",
                              "--args", '{"inputs": 4, "outputs": 2}', "--input-shape", "4",
                              "--output-size", "2", "--loss", "torch.nn:L1Loss", "--out", out)
            self.assertEqual(ok.returncode, 0, ok.stderr)
            _, meta = load(out)
            self.assertEqual((meta["input_shape"], meta["output_size"], meta["has_loss"]),
                             ([4], 2, True))
            cases = {
                "--output-size": ["--module", "examples.regression_mlp:RegressionMlp",
                                "--input-shape", "10", "--output-size", "5"],
                "no module named 'nosuchpkg'": ["--module", "nosuchpkg.nets:Net",
                                                "--input-shape", "10", "--output-size", "1"],
                "has no attribute 'Nope'": ["--module", "examples.regression_mlp:Nope",
                                            "--input-shape", "10", "--output-size", "1"],
                "names a file": ["--module", "python/examples/regression_mlp.py:RegressionMlp",
                                 "--input-shape", "10", "--output-size", "1"],
                "not valid JSON": ["--module", "examples.regression_mlp:RegressionMlp",
                                   "--args", "{inputs: 3}", "--input-shape", "10",
                                   "--output-size", "1"],
                "--input-shape 'ten'": ["--module", "examples.regression_mlp:RegressionMlp",
                                        "--input-shape", "ten", "--output-size", "1"],
                "not a torch.nn.Module": ["--module", "json:dumps", "--args", '{"obj": 1}',
                                          "--input-shape", "10", "--output-size", "1"],
            }
            for expected, args in cases.items():
                # in-process (main() is what the script runs): a subprocess per case costs a
                # PyTorch import each
                stderr = io.StringIO()
                with contextlib.redirect_stderr(stderr):
                    code = dssync_export.main(
                        ["--module-path", PYTHON_DIR, *args, "--out", os.path.join(tmp, "x.pt")])
                self.assertEqual(code, 2, (expected, stderr.getvalue()))
                self.assertIn(expected, stderr.getvalue())
                self.assertNotIn("Traceback", stderr.getvalue())
                self.assertEqual(len(stderr.getvalue().strip().splitlines()), 1, stderr.getvalue())
            self.assertFalse(os.path.exists(os.path.join(tmp, "x.pt")))


class ExampleScriptsTest(unittest.TestCase):
    """The data format and the reference scripts on the (small, bundled) diabetes data."""

    def test_table_round_trip_and_size(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.bin")
            features = torch.arange(12, dtype=torch.float32).reshape(3, 4).numpy()
            labels = torch.tensor([[1.0], [0.0], [2.0]]).numpy()
            write_table(path, features, labels)
            self.assertEqual(os.path.getsize(path), 24 + 4 * 3 * (4 + 1))
            with open(path, "rb") as f:
                self.assertEqual(f.read(4), b"DSDT")
            f2, l2 = read_table(path)
            self.assertEqual(f2.tolist(), features.tolist())
            self.assertEqual(l2.tolist(), labels.tolist())

    @staticmethod
    def run_main(main, *args):
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            code = main(list(args))
        if code != 0:
            raise AssertionError(f"exit code {code}: {stdout.getvalue()}")
        return stdout.getvalue()

    def test_diabetes_train_predict(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.run_main(diabetes_to_files.main, "--out-dir", tmp)
            train_x, train_y = read_table(os.path.join(tmp, "diabetes-train.bin"))
            test_x, _ = read_table(os.path.join(tmp, "diabetes-test.bin"))
            self.assertEqual((train_x.shape[1], train_y.shape[1]), (10, 1))
            self.assertEqual(train_x.shape[0] + test_x.shape[0], 442)
            self.assertAlmostEqual(float(train_y.mean()), 0.0, places=4)  # standardized target
            model = os.path.join(tmp, "mlp.pt")
            export(RegressionMlp(), model, (10,), 1)
            trained = os.path.join(tmp, "trained.pt")
            metrics = json.loads(self.run_main(
                train_reference.main, "--model", model,
                "--train", os.path.join(tmp, "diabetes-train.bin"),
                "--test", os.path.join(tmp, "diabetes-test.bin"), "--epochs", "10",
                "--batch-size", "32", "--lr", "0.01", "--loss", "mse", "--save", trained))
            self.assertEqual(len(metrics["epochs"]), 10)
            self.assertGreater(metrics["test"]["r2"], 0.3)
            pred = os.path.join(tmp, "pred.bin")
            self.run_main(predict.main, "--model", trained,
                          "--features", os.path.join(tmp, "diabetes-test.bin"), "--out", pred)
            self.assertEqual(load(trained)[1]["input_shape"], [10])  # dssync.json kept
            predictions, labels = read_table(pred)
            self.assertEqual(predictions.shape, (test_x.shape[0], 1))
            self.assertEqual(labels.shape, (test_x.shape[0], 0))
            mse = float(((predictions - read_table(os.path.join(tmp, "diabetes-test.bin"))[1])
                         ** 2).mean())
            self.assertAlmostEqual(mse, metrics["test"]["loss"], places=4)

    def test_compare_with_spark_counts_agreement(self):
        with tempfile.TemporaryDirectory() as tmp:
            torch.manual_seed(3)
            model = os.path.join(tmp, "net.pt")
            export(RegressionMlp(inputs=4, hidden=8, outputs=3), model, (4,), 3)
            x = torch.randn(5, 4)
            with torch.no_grad():
                logits = torch.jit.load(model)(x)
            prob = torch.softmax(logits, dim=1)
            pred = logits.argmax(dim=1).tolist()
            pred[0] = (pred[0] + 1) % 3  # one row on which "Spark" disagrees
            scored = os.path.join(tmp, "scored")
            os.makedirs(scored)
            # Spark's JSON writer: part files, one object per line; rows split over two parts.
            for part, rows in (("part-00000-a.json", range(0, 2)), ("part-00001-a.json", range(2, 5))):
                with open(os.path.join(scored, part), "w") as f:
                    for i in rows:
                        f.write(json.dumps({"features": x[i].tolist(), "label": float(pred[i]),
                                            "prediction": float(pred[i]),
                                            "probability": prob[i].tolist()}) + "\n")
            args = ["--model", model, "--predictions", scored]
            result = json.loads(self.run_main(compare_with_spark.main, *args, "--min-agreement", "0.8"))
            self.assertEqual((result["rows"], result["agree"]), (5, 4))
            self.assertAlmostEqual(result["torch_accuracy"], 0.8, places=6)
            self.assertEqual(result["spark_accuracy"], 1.0)
            self.assertLess(result["max_probability_diff"], 1e-5)
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(compare_with_spark.main(args + ["--min-agreement", "0.999"]), 1)


if __name__ == "__main__":
    unittest.main()
