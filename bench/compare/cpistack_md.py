#!/usr/bin/env python3
"""cpistack_md.py: the tables of docs/cpistack.md from `pmkit cpistack --json`.

    build/pmkit cpistack --sim --json > s.json
    bench/compare/cpistack_md.py s.json

Prints one row per workload (max / average component error in % of total
CPI, per method and reference), the summary over the workloads (worst
maximum, mean of the maxima, mean of the averages) against Sim, Sim inv and
the band between them, each FMT variant's errors against the band per
workload ("over" where seed 001's bar, 4 % maximum and 2.5 % average, is
missed), and how many workloads each FMT variant has within that bar of
each reference.
"""
import json
import sys

ROW = [("sim-inv", "sim"), ("fmt", "sim"), ("fmt", "sim-inv"),
       ("fmt-ov", "sim"), ("fmt-ov", "sim-inv"), ("fmt-wp", "sim"),
       ("fmt-wp", "sim-inv"), ("sfmt", "sim"),
       ("naive", "sim"), ("naive-nonspec", "sim"), ("power5", "sim")]
NAMES = {"sim": "Sim", "sim-inv": "Sim inv", "fmt": "FMT", "fmt-ov": "FMT-ov",
         "sfmt": "sFMT", "fmt-wp": "FMT-wp", "naive": "naive",
         "naive-nonspec": "naive-nonspec",
         "power5": "POWER5"}
METHODS = ["sim", "sim-inv", "fmt", "sfmt", "fmt-ov", "fmt-wp", "naive",
           "naive-nonspec", "power5"]
REFS = ["sim", "sim-inv", "band"]


def short(name):
    base = name.rsplit("/", 1)[-1]
    return base[:-6] if base.endswith(".trace") else base


def main(path):
    ws = json.load(open(path))["workloads"]
    head = ["workload", "CPI", "Sim vs Sim inv"] + [
        "%s vs %s" % (NAMES[m], NAMES[r]) for m, r in ROW[1:]]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for w in ws:
        cells = [short(w["name"]), "%.3f" % w["cpi"]]
        for m, r in ROW:
            e = w["methods"][m]["error"][r]
            cells.append("%.1f / %.1f" % (e["max_pct"], e["avg_pct"]))
        print("| " + " | ".join(cells) + " |")
    print()
    print("| method | vs Sim: worst max | mean max | mean avg | vs Sim inv: "
          "worst max | mean max | mean avg | vs band: worst max | mean max "
          "| mean avg |")
    print("|" + "---|" * 10)
    for m in METHODS:
        cells = [m]
        for r in REFS:
            mx = [w["methods"][m]["error"][r]["max_pct"] for w in ws]
            av = [w["methods"][m]["error"][r]["avg_pct"] for w in ws]
            cells += ["%.2f" % max(mx), "%.2f" % (sum(mx) / len(mx)),
                      "%.2f" % (sum(av) / len(av))]
        print("| " + " | ".join(cells) + " |")
    print()
    print("| workload | FMT vs band | FMT-ov vs band | sFMT vs band "
          "| FMT-wp vs band |")
    print("|---|---|---|---|---|")
    for w in ws:
        cells = [short(w["name"])]
        for m in ["fmt", "fmt-ov", "sfmt", "fmt-wp"]:
            e = w["methods"][m]["error"]["band"]
            ok = e["max_pct"] <= 4.0 and e["avg_pct"] <= 2.5
            cells.append("%.1f / %.1f%s" % (e["max_pct"], e["avg_pct"],
                                             "" if ok else " (over)"))
        print("| " + " | ".join(cells) + " |")
    print()
    for m in ["fmt", "fmt-ov", "fmt-wp"]:
        for r in REFS:
            ok = [short(w["name"]) for w in ws
                  if w["methods"][m]["error"][r]["max_pct"] <= 4.0 and
                  w["methods"][m]["error"][r]["avg_pct"] <= 2.5]
            print("%s within 4 %% / 2.5 %% of %s: %d of %d (%s)" %
                  (m, r, len(ok), len(ws), ", ".join(ok)))
        either = [short(w["name"]) for w in ws if any(
            w["methods"][m]["error"][r]["max_pct"] <= 4.0 and
            w["methods"][m]["error"][r]["avg_pct"] <= 2.5
            for r in ["sim", "sim-inv"])]
        print("%s within 4 %% / 2.5 %% of Sim or Sim inv: %d of %d (%s)" %
              (m, len(either), len(ws), ", ".join(either)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: cpistack_md.py FILE.json")
    main(sys.argv[1])
