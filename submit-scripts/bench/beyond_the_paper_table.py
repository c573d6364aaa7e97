"""The table of submit-scripts/bench/beyond-the-paper from its metrics files (standard library only).

Each file <model>.<config>.swa<start>.seed<seed>.jsonl holds a run's stage lines. Per (model, config, SWA) it
prints the mean and the spread (sample standard deviation, and min..max) over seeds of the final test metric (the
last evaluated stage: under SWA, the mean model) and of the training time to the model's target (the sum of stage
times up to the first stage whose test metric reaches it; runs that never reach it are counted), and flags a
variant whose mean final metric is below full's by more than the two spreads together.
"""
import argparse
import json
import pathlib
import re
import statistics
from collections import defaultdict

NAME = re.compile(r"(?P<model>[^.]+)\.(?P<config>[^.]+)\.swa(?P<swa>[0-9.]+)\.seed(?P<seed>\d+)\.jsonl$")


def read_run(path, target):
    stages = [json.loads(line) for line in path.read_text().splitlines() if '"type":"stage"' in line]
    evaluated = [s for s in stages if s.get("testMetric") is not None]
    if not evaluated:
        return None
    final = evaluated[-1]["testMetric"]
    elapsed, to_target = 0.0, None
    for s in stages:
        elapsed += s["stageSeconds"]
        if to_target is None and s.get("testMetric") is not None and s["testMetric"] >= target:
            to_target = elapsed
    return final, to_target, evaluated[-1].get("testMetricName", "metric")


def spread(values):
    if not values:
        return "n/a"
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{mean:.4f} ± {sd:.4f} ({min(values):.4f}..{max(values):.4f})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--target", action="append", default=[], help="model=value")
    args = parser.parse_args()
    targets = {k: float(v) for k, v in (t.split("=", 1) for t in args.target)}
    runs = defaultdict(list)
    metric_names = {}
    for path in sorted(pathlib.Path(args.dir).glob("*.jsonl")):
        m = NAME.search(path.name)
        if not m:
            continue
        run = read_run(path, targets.get(m["model"], float("inf")))
        if run is not None:
            runs[(m["model"], m["config"], m["swa"])].append(run)
            metric_names[m["model"]] = run[2]
    print("| model | config | SWA start | seeds | final test metric: mean ± sd (min..max) "
          "| time to target s: mean ± sd (min..max) | reached | vs full |")
    print("|---|---|---|---|---|---|---|---|")
    for (model, config, swa), results in sorted(runs.items()):
        finals = [r[0] for r in results]
        times = [r[1] for r in results if r[1] is not None]
        full = runs.get((model, "full", "0")) or runs.get((model, "full", swa))
        verdict = ""
        if full and config != "full":
            full_finals = [r[0] for r in full]
            gap = statistics.fmean(full_finals) - statistics.fmean(finals)
            noise = (statistics.stdev(finals) if len(finals) > 1 else 0) + (
                statistics.stdev(full_finals) if len(full_finals) > 1 else 0)
            verdict = f"{-gap:+.4f}" + (" (loses beyond the seeds' spread)" if gap > noise else "")
        print(f"| {model} ({metric_names[model]}, target {targets.get(model, 'n/a')}) | {config} | {swa} "
              f"| {len(results)} | {spread(finals)} | {spread(times)} | {len(times)}/{len(results)} | {verdict} |")


if __name__ == "__main__":
    main()
