import re,sys,glob,statistics,collections
files=sorted(glob.glob(sys.argv[1]))
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in files:
    for line in open(f):
        if not line.startswith('BenchmarkLeader/'): continue
        parts=line.split()
        name=re.sub(r'-\d+$','',parts[0])[len('BenchmarkLeader/'):]
        vals=dict()
        for i in range(2,len(parts)-1,2):
            vals[parts[i+1]]=float(parts[i])
        for k,v in vals.items(): d[name][k].append(v)
med={n:{k:statistics.median(v) for k,v in m.items()} for n,m in d.items()}
spread={n:{k:(max(v)-min(v))/2/statistics.median(v)*100 if statistics.median(v) else 0 for k,v in m.items()} for n,m in d.items()}
groups=collections.OrderedDict()
for n in med:
    g,ph=n.split('/members=')[0], n.split('/',3)[3]
    mem=n.split('/members=')[1].split('/')[0]
    groups.setdefault(g+'/m='+mem,{})[ph]=(med[n],spread[n])
print("runs:",len(files))
for g,phs in groups.items():
    print("\n##",g)
    print("| phase | ns/op | cpu-ns/op (±%) | B/op | allocs/op |")
    print("|---|--:|--:|--:|--:|")
    for ph,(m,s) in phs.items():
        print(f"| {ph} | {m['ns/op']/1e6:.2f} ms | {m.get('cpu-ns/op',0)/1e6:.2f} ms (±{s.get('cpu-ns/op',0):.0f}%) | {m['B/op']/1e6:.2f} MB | {m['allocs/op']:.0f} |")
    def c(ph,k='cpu-ns/op'): return phs[ph][0][k]
    for k in ['cpu-ns/op','ns/op']:
        share_b=c('read/before',k)+c('plan-maps/before',k)-c('forced-minimum',k)
        share_a=c('read/after',k)+c('plan-maps/after',k)-c('forced-minimum',k)
        core=c('core/before',k)
        print(f"\n{k}: adapter share before {share_b/1e6:.2f} ms = {share_b/core:.2f}x core; after {share_a/1e6:.2f} ms = {share_a/core:.2f}x core (core/before {core/1e6:.2f} ms); leader after/before {c('leader/after',k)/c('leader/before',k):.2f}")
