# preset_spr_cmp.py CSV PMKIT FIXTURES: PAPI's icx definitions, renamed to
# Sapphire Rapids' event names, against pmkit's spr table (preset_spr.t):
# each preset resolves on the spr fixture, from the table, to the same
# formula over the same events by name (their codes are libpfm4's spr
# encodings: Intel moved some events, OFFCORE_REQUESTS from 0xB0 to 0x21).
# Prints the differences, then "same N of M".
import json
import os
import subprocess
import sys

csv, pmkit, fx = sys.argv[1:4]
adl = len(sys.argv) > 4 and sys.argv[4] == 'adl' 
# Ice Lake-SP's names -> Sapphire Rapids' (tbl_spr.c's header says why)
REN = [('FP_ARITH:', 'FP_ARITH_INST_RETIRED:'),
       ('LLC_REFERENCES', 'LONGEST_LAT_CACHE:REFERENCE'),
       ('LLC_MISSES', 'LONGEST_LAT_CACHE:MISS'),
       ('OFFCORE_REQUESTS:ALL_DATA_RD', 'OFFCORE_REQUESTS:DATA_RD')]


def rename(n):
    for a, b in REN:
        if a.endswith(':') and n.startswith(a):
            return b + n[len(a):]
        if n == a:
            return b
    return n


def enc(machine, name):
    r = subprocess.run([pmkit, 'encode', '--json', name], capture_output=True,
                       text=True,
                       env=dict(os.environ, PMK_SYSROOT=fx + '/' + machine))
    if r.returncode:
        return None
    return json.loads(r.stdout.splitlines()[0])


def encoded(e):
    """a preset's formula with each native as type:config"""
    enc = {l['name']: '%s:%s' % (l['type'], l['config']) for l in e['leaves']}
    f = e.get('formula', e['leaves'][0]['name'])
    return [enc.get(t, t) for t in f.split()]


if adl:
    # tbl_adl.c against tbl_spr.c: the same events (codes) and formula,
    # but for the 512-bit FP masks (event 0xc7, umasks 0x40 and 0x80) the
    # client core lacks; the presets tbl_adl.c leaves out are named there
    r = subprocess.run([pmkit, 'list', '--details'], capture_output=True,
                       text=True,
                       env=dict(os.environ, PMK_SYSROOT=fx + '/intel-adl'))
    names, cur = [], None
    for line in r.stdout.splitlines():
        w = line.split()
        if w and w[0].startswith('PAPI_'):
            cur = w[0]
        elif cur and "pmkit's table of adl_glc" in line:
            names.append(cur)
    same, bad = 0, []
    for p in names:
        a, s = enc('intel-adl', p), enc('intel-spr', p)
        if not a or not s:
            bad.append('%s: adl %s spr %s' % (p, bool(a), bool(s)))
            continue
        fa, fs = encoded(a), encoded(s)
        if p in ('PAPI_DP_OPS', 'PAPI_SP_OPS', 'PAPI_VEC_DP', 'PAPI_VEC_SP'):
            wide = {'4:0x40c7', '4:0x80c7'}
            ok = ([t for t in fa if ':0x' in t] ==
                  [t for t in fs if ':0x' in t and t not in wide])
        else:
            ok = fa == fs
        if ok:
            same += 1
        else:
            bad.append('%s: adl %s / spr %s' % (p, fa, fs))
    for b in bad[:5]:
        print(b)
    print('adl same %d of %d' % (same, len(names)))
    sys.exit(0)

papi, cpu = {}, None
for line in open(csv):
    f = line.strip().split(',')
    if f[0] == 'CPU':
        cpu = f[1]
    elif f[0] == 'PRESET' and cpu == 'icx':
        kind, nat = f[2], f[3:]
        if kind == 'NOT_DERIVED':
            rpn = [nat[0]]
        elif kind in ('DERIVED_ADD', 'DERIVED_SUB'):
            rpn = [nat[0], nat[1], '+' if kind == 'DERIVED_ADD' else '-']
        else:  # DERIVED_POSTFIX: N0|N1|2|*|+|...
            rpn = [nat[1 + int(t[1:])] if t[:1] == 'N' else t
                   for t in nat[0].split('|') if t]
        papi[f[1]] = rpn

same = 0
bad = []
for p, rpn in sorted(papi.items()):
    e = enc('intel-spr', p)
    if not e:
        bad.append('%s: not resolved on spr' % p)
        continue
    leaves = {l['name'].split('::')[-1]: '%s:%s' % (l['type'], l['config'])
              for l in e['leaves']}
    got = [t.split('::')[-1]
           for t in e.get('formula', e['leaves'][0]['name']).split()]
    want = [rename(t) for t in rpn]
    if got != want:
        bad.append('%s: spr %s, PAPI icx renamed %s' % (p, got, want))
        continue
    same += 1
for b in bad[:5]:
    print(b)
print('same %d of %d' % (same, len(papi)))
