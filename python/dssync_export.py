#!/usr/bin/env python3
"""Export a PyTorch nn.Module as a TorchScript file that spark-dssync can train.

Run it with your own PyTorch, e.g.

    python3 dssync_export.py --module mypkg.nets:ResNetSmall --args '{"classes": 10}' \\
        --input-shape 1,28,28 --output-size 10 [--loss mypkg.losses:my_loss] \\
        [--module-path DIR] [--input-dtype float32|int64] [--seed N] --out net.pt

or from Python: ``export(module, "net.pt", (1, 28, 28), 10, loss_fn=None)``.

The file it writes (see README.md, "File contract"):

- ``forward(x: Tensor) -> Tensor``: the module's forward; x has shape (batch, *input_shape),
  the result (batch, output_size).
- ``dssync_buffers(self) -> List[Tensor]``: the module's float32 buffers that replicas average
  (BatchNorm running_mean / running_var; never num_batches_tracked), in named_buffers() order.
  The tensors are the module's own buffers, not copies, so the engine reads and writes them in place.
- ``dssync_loss(self, output: Tensor, label: Tensor) -> Tensor`` when a loss is given: a scalar
  mean loss; labels arrive as float32 (batch, label_width).
- the extra file ``dssync.json`` (zip entry ``<archive>/extra/dssync.json``) describing the above.

The module is compiled with torch.jit.script, never torch.jit.trace: a trace records the
train/eval branch it ran through, so BatchNorm and dropout would behave as in eval (or as in
training) for ever, whatever mode the engine sets.

Exit codes: 0 written and checked, 2 user error (one-line message saying what to change),
1 anything unexpected (a traceback, i.e. a bug here or in PyTorch).
"""

import argparse
import importlib
import json
import keyword
import os
import sys
import tempfile
import traceback
from typing import Callable, List, Optional, Sequence, Tuple

import torch
from torch import Tensor, nn

FORMAT_VERSION = 1
EXTRA_FILE = "dssync.json"
INPUT_DTYPES = {"float32": torch.float32, "int64": torch.int64}
# The batch used for the checks: not 1 (BatchNorm refuses a batch of one in training mode) and not
# a typical batch size, so a model that hard-codes its batch size shows up.
CHECK_BATCH = 3
MAX_ABS_DIFF = 1e-5
WRAPPED_NAME = "net"  # the user's module is the attribute `net` of the exported module


class ExportError(Exception):
    """A user mistake: the message names the bad value and what to do instead."""


class _Exported(nn.Module):
    """What the file holds: the user's module as `net`, plus the methods added by define()."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, x: Tensor) -> Tensor:
        return self.net(x)


class _ExportedWithLoss(_Exported):
    """Same, with a loss that is itself an nn.Module (scripted as the submodule `loss`)."""

    def __init__(self, net: nn.Module, loss: nn.Module):
        super().__init__(net)
        self.loss = loss


# ---------------------------------------------------------------------------------------------
# argument parsing helpers (shared with examples/train_reference.py)

def parse_shape(text: str) -> Tuple[int, ...]:
    cleaned = text.strip().strip("()[]").replace("x", ",")
    try:
        dims = tuple(int(part) for part in cleaned.split(",") if part.strip() != "")
    except ValueError:
        dims = ()
    if not dims or any(d <= 0 for d in dims):
        raise ExportError(f"--input-shape '{text}' is not a list of positive integers without "
                          "the batch dimension; write e.g. 1,28,28 for one grey 28x28 image or 10 "
                          "for 10 features")
    return dims


def parse_args_json(text: Optional[str]) -> dict:
    if text is None or text.strip() == "":
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExportError(f"--args '{text}' is not valid JSON ({e.msg} at column {e.colno}); "
                          "write keyword arguments as an object, e.g. '{\"classes\": 10}'")
    if not isinstance(value, dict):
        raise ExportError(f"--args '{text}' must be a JSON object of keyword arguments, "
                          "e.g. '{\"classes\": 10}'")
    return value


def add_module_paths(paths: Sequence[str]) -> None:
    for path in reversed(list(paths or [])):
        if not os.path.isdir(path):
            raise ExportError(f"--module-path '{path}' is not a directory; give the directory "
                              "that contains your package")
        sys.path.insert(0, os.path.abspath(path))


def resolve(spec: str, option: str) -> object:
    """Import 'import.path:Attr' (Attr may be dotted) and return the attribute."""
    if spec.count(":") != 1 or not all(spec.split(":")):
        raise ExportError(f"{option} '{spec}' must be 'import.path:Name', e.g. mypkg.nets:ResNetSmall")
    module_name, attr_path = spec.split(":")
    if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
        raise ExportError(f"{option} '{spec}' names a file; give the import path instead "
                          "(mypkg.nets:Name) and the directory holding mypkg with --module-path DIR")
    try:
        obj = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        missing = e.name or module_name
        if module_name == missing or module_name.startswith(missing + "."):
            raise ExportError(f"{option} '{spec}': no module named '{missing}'; add the directory "
                              "that contains it with --module-path DIR (or run from that directory)")
        raise ExportError(f"{option} '{spec}': importing {module_name} failed because it imports "
                          f"'{missing}', which is not installed for {sys.executable}")
    except Exception as e:  # the user's module raised while being imported
        raise ExportError(f"{option} '{spec}': importing {module_name} raised "
                          f"{type(e).__name__}: {e} (rerun with --debug for the traceback)") from e
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            raise ExportError(f"{option} '{spec}': {getattr(obj, '__name__', module_name)} has no "
                              f"attribute '{part}'; check the spelling after the colon")
        obj = getattr(obj, part)
    return obj


def build_module(spec: str, kwargs: dict) -> nn.Module:
    factory = resolve(spec, "--module")
    if isinstance(factory, nn.Module):
        if kwargs:
            raise ExportError(f"--module '{spec}' is already a module instance; drop --args or "
                              "name its class instead")
        return factory
    if not callable(factory):
        raise ExportError(f"--module '{spec}' is a {type(factory).__name__}, not a class or a "
                          "function returning an nn.Module")
    try:
        module = factory(**kwargs)
    except Exception as e:
        raise ExportError(f"--module '{spec}' with --args {json.dumps(kwargs)} raised "
                          f"{type(e).__name__}: {e}; check the keyword arguments") from e
    if not isinstance(module, nn.Module):
        raise ExportError(f"--module '{spec}' returned a {type(module).__name__}, not a "
                          "torch.nn.Module; name the model class or a function that builds one")
    return module


def build_loss(spec: str):
    loss = resolve(spec, "--loss")
    if isinstance(loss, type) and issubclass(loss, nn.Module):
        return loss()
    if not callable(loss):
        raise ExportError(f"--loss '{spec}' is a {type(loss).__name__}, not a function or "
                          "nn.Module class")
    return loss


# ---------------------------------------------------------------------------------------------
# export

def _is_traced(module: nn.Module) -> bool:
    traced = getattr(torch.jit, "TracedModule", None)
    if traced is None:
        return False
    return any(isinstance(m, traced) for m in module.modules())


def averaged_buffer_names(module: nn.Module) -> List[str]:
    """Float buffers in named_buffers() order; integer buffers such as num_batches_tracked
    are counters, not statistics, so they are not averaged."""
    names = []
    for name, buf in module.named_buffers():
        if not buf.is_floating_point():
            continue
        if buf.dtype != torch.float32:
            raise ExportError(f"buffer '{name}' is {buf.dtype}; the engine trains float32 models: "
                              "call .float() on the module before exporting")
        names.append(name)
    return names


def _attribute_expr(root: str, dotted: str) -> str:
    """TorchScript source that reaches `dotted` from `root`: a.b for identifiers, and
    getattr(a, "0") for names such as Sequential's "0" that are not identifiers."""
    expr = root
    for part in dotted.split("."):
        if part.isidentifier() and not keyword.iskeyword(part):
            expr = f"{expr}.{part}"
        else:
            expr = f"getattr({expr}, {json.dumps(part)})"
    return expr


def buffers_method_source(names: Sequence[str]) -> str:
    """Source of dssync_buffers: one explicit reference per buffer, because TorchScript cannot
    script self.buffers() and its named_buffers() returns an empty list. Returning the attributes
    themselves (not copies) is what makes the result alias the module's buffers."""
    lines = ["def dssync_buffers(self) -> List[Tensor]:",
             "    buffers: List[Tensor] = []"]
    for name in names:
        lines.append(f"    buffers.append({_attribute_expr('self.' + WRAPPED_NAME, name)})")
    lines.append("    return buffers")
    return "\n".join(lines) + "\n"


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _script(obj, what: str, hint: str):
    try:
        return torch.jit.script(obj)
    except Exception as e:
        # The compiler's message points at the offending source line: keep it, indented.
        lines = str(e).strip().splitlines()
        detail = "".join("\n    " + line for line in lines) if len(lines) > 1 else ""
        raise ExportError(f"{what} is not scriptable by torch.jit.script: {_first_line(e)}; "
                          f"{hint}{detail}") from e


def _random_input(shape: Sequence[int], dtype: torch.dtype, seed: int) -> Tensor:
    gen = torch.Generator().manual_seed(seed)
    if dtype == torch.int64:
        # ids 0 and 1 are valid for any embedding table with two or more rows
        return torch.randint(0, 2, (CHECK_BATCH, *shape), generator=gen, dtype=torch.int64)
    return torch.randn((CHECK_BATCH, *shape), generator=gen)


def _check_output(out, output_size: int, where: str) -> None:
    if not isinstance(out, Tensor):
        raise ExportError(f"{where}: forward returned a {type(out).__name__}; it must return one "
                          "Tensor of shape (batch, output_size)")
    if tuple(out.shape) != (CHECK_BATCH, output_size):
        raise ExportError(f"{where}: forward returned shape {tuple(out.shape)} for a batch of "
                          f"{CHECK_BATCH}, expected ({CHECK_BATCH}, {output_size}); pass "
                          f"--output-size matching the model, or check --input-shape")
    if out.dtype != torch.float32:
        raise ExportError(f"{where}: forward returned {out.dtype}; it must return float32")


def export(module: nn.Module, out_path: str, input_shape: Sequence[int], output_size: int,
           loss_fn: Optional[Callable] = None, input_dtype: str = "float32") -> dict:
    """Script `module`, add the dssync methods, save it to `out_path`, reload it and check it.

    Returns the metadata written as dssync.json. Raises ExportError for user mistakes.
    The module is left in the train/eval mode it came in; the file is saved in eval mode."""
    if not isinstance(module, nn.Module):
        raise ExportError(f"the model is a {type(module).__name__}, not a torch.nn.Module")
    if _is_traced(module):
        raise ExportError("the model is (or contains) a torch.jit.trace result: a trace freezes "
                          "the train/eval mode it was traced in, so BatchNorm and dropout would be "
                          "wrong in training; pass the nn.Module so it is scripted")
    if input_dtype not in INPUT_DTYPES:
        raise ExportError(f"input dtype '{input_dtype}' is not supported; use float32 (features, "
                          "images) or int64 (token or category ids)")
    input_shape = tuple(int(d) for d in input_shape)
    if not input_shape or any(d <= 0 for d in input_shape):
        raise ExportError(f"input shape {input_shape} must be positive sizes without the batch "
                          "dimension, e.g. (1, 28, 28)")
    if not isinstance(output_size, int) or output_size <= 0:
        raise ExportError(f"output size {output_size!r} must be a positive integer")
    for name, p in module.named_parameters():
        if p.dtype != torch.float32:
            raise ExportError(f"parameter '{name}' is {p.dtype}; the engine trains float32 "
                              "models: call .float() on the module before exporting")
    buffer_names = averaged_buffer_names(module)

    was_training = module.training
    x = _random_input(input_shape, INPUT_DTYPES[input_dtype], seed=1234)
    try:
        module.eval()
        with torch.no_grad():
            try:
                expected = module(x)
            except Exception as e:
                raise ExportError(f"the eager forward failed on a random batch of shape "
                                  f"{tuple(x.shape)} ({input_dtype}): {type(e).__name__}: "
                                  f"{_first_line(e)}; check --input-shape / --input-dtype") from e
        _check_output(expected, output_size, "eager module")

        loss_module = loss_fn if isinstance(loss_fn, nn.Module) else None
        if loss_module is not None and any(True for _ in loss_module.parameters()):
            raise ExportError("the loss module has parameters; the engine averages only the "
                              "model's parameters, so put trainable parts in the model")
        # A fresh class per export: TorchScript shares one type among modules of the same Python
        # class, and define() below adds methods to that type.
        base = _ExportedWithLoss if loss_module is not None else _Exported
        # Named after this file even when it runs as __main__, so the file's type is always
        # __torch__.dssync_export.DssyncModule (mangled by PyTorch if several are loaded).
        cls = type("DssyncModule", (base,), {"__module__": "dssync_export"})
        wrapper = cls(module, loss_module) if loss_module is not None else cls(module)
        scripted = _script(wrapper, f"the model {type(module).__name__}",
                           "make forward(x) TorchScript-compatible (type annotations, no Python-only "
                           "calls) and return a single Tensor")

        # define() resolves names in the caller's frame: List, Tensor (module globals) and
        # dssync_user_loss (this local).
        scripted.define(buffers_method_source(buffer_names))
        if loss_fn is not None:
            if loss_module is not None:
                scripted.define("def dssync_loss(self, output: Tensor, label: Tensor) -> Tensor:\n"
                                "    return self.loss(output, label)\n")
            else:
                dssync_user_loss = _script(  # noqa: F841 (used by the define() source)
                    loss_fn, f"the loss {getattr(loss_fn, '__name__', repr(loss_fn))}",
                    "annotate it as (output: Tensor, label: Tensor) -> Tensor and use TorchScript "
                    "ops only")
                try:
                    scripted.define("def dssync_loss(self, output: Tensor, label: Tensor) -> Tensor:\n"
                                    "    return dssync_user_loss(output, label)\n")
                except Exception as e:
                    raise ExportError(f"the loss cannot be called as loss(output, label) -> Tensor: "
                                      f"{_first_line(e)}; give it exactly two Tensor arguments and "
                                      "a Tensor result") from e
        scripted.eval()

        meta = {
            "format": FORMAT_VERSION,
            "input_shape": list(input_shape),
            "input_dtype": input_dtype,
            "output_size": output_size,
            "has_loss": loss_fn is not None,
            "buffers": [f"{WRAPPED_NAME}.{n}" for n in buffer_names],
            "torch_version": torch.__version__,
        }
        out_dir = os.path.dirname(os.path.abspath(out_path))
        if not os.path.isdir(out_dir):
            raise ExportError(f"--out '{out_path}': directory {out_dir} does not exist")
        # Written next to the target and renamed only once checked, so a failed export leaves
        # no file (and never half-replaces an older good one). Same base name, because
        # torch.jit.save names the zip's top folder after the file: <stem>/extra/dssync.json.
        with tempfile.TemporaryDirectory(prefix=".dssync-export-", dir=out_dir) as tmp_dir:
            tmp_path = os.path.join(tmp_dir, os.path.basename(out_path))
            torch.jit.save(scripted, tmp_path,
                           _extra_files={EXTRA_FILE: json.dumps(meta, indent=2)})
            check_file(tmp_path, meta, x, expected)
            os.replace(tmp_path, out_path)
    finally:
        module.train(was_training)
    return meta


def check_file(path: str, meta: dict, x: Tensor, expected: Tensor) -> None:
    """Reload the written file and check it behaves as the eager module and as the metadata says."""
    extra = {EXTRA_FILE: ""}
    try:
        loaded = torch.jit.load(path, _extra_files=extra)
    except Exception as e:
        detail = "\n".join("    " + line for line in str(e).strip().splitlines())
        raise ExportError(f"torch.jit.load cannot read back the file torch.jit.save just wrote: "
                          f"{_first_line(e)}; PyTorch writes some names it cannot parse again "
                          f"(e.g. a submodule named like a Python keyword): rename the attribute "
                          f"shown below\n{detail}") from e
    if json.loads(extra[EXTRA_FILE]) != meta:
        raise RuntimeError(f"{path}: {EXTRA_FILE} did not survive the save")
    loaded.eval()
    with torch.no_grad():
        got = loaded(x)
    _check_output(got, meta["output_size"], "scripted file")
    diff = (got - expected).abs().max().item()
    if not diff <= MAX_ABS_DIFF:
        raise ExportError(f"the scripted file's eval output differs from the eager module's by "
                          f"{diff:.3g} (limit {MAX_ABS_DIFF}); the forward must be deterministic in "
                          "eval mode and script the same computation as the eager code")
    buffers = loaded.dssync_buffers()
    named = dict(loaded.named_buffers())
    if len(buffers) != len(meta["buffers"]):
        raise RuntimeError(f"dssync_buffers returned {len(buffers)} tensors, expected "
                           f"{len(meta['buffers'])}")
    for name, buf in zip(meta["buffers"], buffers):
        if buf.data_ptr() != named[name].data_ptr():
            raise RuntimeError(f"dssync_buffers does not alias buffer {name} after loading")
    if meta["has_loss"]:
        _check_loss(loaded, got, meta["output_size"])


def _check_loss(loaded, output: Tensor, output_size: int) -> None:
    """The label width is the loss's business (1 for class indices, output_size for regression
    targets): accept the loss if it works with either, with all-zero labels (class 0)."""
    failures = []
    for width in sorted({1, output_size}):
        label = torch.zeros(CHECK_BATCH, width)
        try:
            value = loaded.dssync_loss(output, label)
        except Exception as e:
            failures.append(f"label width {width}: {_first_line(e)}")
            continue
        if value.numel() != 1 or value.dim() > 1:
            raise ExportError(f"dssync_loss returned shape {tuple(value.shape)}; it must return a "
                              "scalar (the mean over the batch), e.g. end with .mean()")
        if not value.is_floating_point():
            raise ExportError(f"dssync_loss returned {value.dtype}; it must return a float tensor")
        return
    raise ExportError("the loss failed on float32 labels of shape (batch, 1) and (batch, "
                      f"output_size): {'; '.join(failures)}. Labels arrive as float32; convert "
                      "class labels with label[:, 0].long()")


# ---------------------------------------------------------------------------------------------
# command line

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dssync_export.py",
        description="Write a TorchScript file of an nn.Module that spark-dssync can train.")
    p.add_argument("--module", required=True, metavar="PKG.MOD:NAME",
                   help="class or function returning the nn.Module, e.g. mypkg.nets:ResNetSmall")
    p.add_argument("--args", default=None, metavar="JSON",
                   help="keyword arguments for it as a JSON object, e.g. '{\"classes\": 10}'")
    p.add_argument("--input-shape", required=True, metavar="D1,D2,...",
                   help="shape of one example without the batch dimension, e.g. 1,28,28")
    p.add_argument("--input-dtype", default="float32", choices=sorted(INPUT_DTYPES),
                   help="dtype of the input batch (default float32)")
    p.add_argument("--output-size", required=True, type=int, metavar="K",
                   help="width of forward's output (classes, or regression outputs)")
    p.add_argument("--loss", default=None, metavar="PKG.MOD:NAME",
                   help="optional loss(output, label) -> scalar Tensor, or an nn.Module class; "
                        "saved as dssync_loss")
    p.add_argument("--module-path", action="append", default=[], metavar="DIR",
                   help="directory put in front of sys.path (repeatable)")
    p.add_argument("--seed", type=int, default=None,
                   help="torch.manual_seed before building the module, for reproducible initial "
                        "weights (default: PyTorch's unseeded generator)")
    p.add_argument("--out", required=True, metavar="FILE", help="TorchScript file to write")
    p.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        add_module_paths(args.module_path)
        shape = parse_shape(args.input_shape)
        kwargs = parse_args_json(args.args)
        if args.seed is not None:
            torch.manual_seed(args.seed)
        module = build_module(args.module, kwargs)
        loss = build_loss(args.loss) if args.loss else None
        meta = export(module, args.out, shape, args.output_size, loss_fn=loss,
                      input_dtype=args.input_dtype)
    except ExportError as e:
        if args.debug:
            traceback.print_exc()
        print(f"dssync_export: error: {e}", file=sys.stderr)
        return 2
    print(f"dssync_export: wrote {args.out} (output {meta['output_size']}, "
          f"{len(meta['buffers'])} averaged buffers, loss: {'yes' if meta['has_loss'] else 'no'}, "
          f"torch {meta['torch_version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
