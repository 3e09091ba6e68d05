package sticky

import "github.com/kgroup/assignor/internal/balance"

// classifier is indexClasses' state while it walks the topics in flat
// order, giving every subscribed partition its class.
type classifier struct {
	sol *solver
	// inSet[m]: member m subscribes to the topic at hand, whose subscriber
	// set is marked.
	inSet  []bool
	marked int32
	// Per member: the last hub it owned a partition in, and that class.
	lastHub, lastClass []int32
	classByKey         map[uint64]int32 // (hub, owner) -> class
	hubByKey           map[uint64]int32 // (set, rack set) -> hub
	unownedClass       []int32          // per hub: its class without an owner, or -1
	interner           rackInterner
	// rackHub[r+1] caches hub+1 of (rackHubSet, rack set r) while topics of
	// that subscriber set are read.
	rackHub    []int32
	rackHubSet int32
	// rackClass[r+1] caches class+1 of the unowned partitions of (rackHubSet,
	// rack set r), for groups without claims.
	rackClass []int32
	// claimed: some member claims something. Without claims (a fresh
	// group), a topic whose hub cannot change from partition to partition
	// is one class: its hub's unowned one.
	claimed bool
}

// indexClasses numbers the hubs and classes and gives every subscribed
// partition its class. Owners that no longer subscribe to the topic count as
// no owner.
func (sol *solver) indexClasses() {
	ix := sol.ix
	sol.partClass = make([]int32, ix.NumPartitions())
	c := &classifier{
		sol:        sol,
		inSet:      make([]bool, sol.members),
		marked:     -1,
		lastHub:    make([]int32, sol.members),
		lastClass:  make([]int32, sol.members),
		classByKey: map[uint64]int32{},
		hubByKey:   map[uint64]int32{},
		rackHubSet: -1,
		claimed:    balance.HasClaims(ix),
	}
	for i := range c.lastHub {
		c.lastHub[i] = -1
	}
	if sol.rackAware {
		c.interner.init(sol)
	}
	for t := range int32(ix.NumTopics()) {
		c.topic(t)
	}
	if sol.rackAware {
		sol.rackMasks = c.interner.masks
	}
}

// topic classifies the partitions of topic t.
func (c *classifier) topic(t int32) {
	sol := c.sol
	set := sol.topicSet[t]
	lo, hi := sol.ix.TopicRange(t)
	if set < 0 {
		for p := lo; p < hi; p++ {
			sol.partClass[p] = -1
		}
		return
	}
	c.mark(set)
	racks := sol.ix.Topic(t).ReplicaRacks
	if !c.claimed && !(sol.rackAware && racks != nil) {
		class := c.unowned(sol.hub(c.hubByKey, set, -1))
		for p := lo; p < hi; p++ {
			sol.partClass[p] = class
		}
		sol.classSize[class] += hi - lo
		return
	}
	if set != c.rackHubSet {
		clear(c.rackHub)
		clear(c.rackClass)
		c.rackHubSet = set
	}
	if !c.claimed {
		c.freshRacks(set, racks, lo, hi)
		return
	}
	hub, lastRack := int32(-1), int32(-2)
	for p := lo; p < hi; p++ {
		rack := int32(-1)
		if sol.rackAware && racks != nil {
			rack = c.interner.id(racks[p-lo])
		}
		if rack != lastRack {
			hub, lastRack = c.rackSetHub(set, rack), rack
		}
		class := c.ownedClass(hub, sol.ix.Owner(p))
		sol.partClass[p] = class
		sol.classSize[class]++
	}
}

// freshRacks classifies the partitions lo to hi of a topic of subscriber
// set set with replica racks racks, in a group without claims: every
// partition is in the unowned class of its rack set's hub, cached per rack
// set so that a partition costs one rack lookup.
func (c *classifier) freshRacks(set int32, racks [][]string, lo, hi int32) {
	sol := c.sol
	partClass, classSize := sol.partClass[lo:hi], sol.classSize
	for i, rs := range racks[:hi-lo] {
		rack := c.interner.id(rs)
		if int(rack+1) >= len(c.rackClass) {
			c.rackClass = append(c.rackClass, make([]int32, int(rack+2)-len(c.rackClass))...)
		}
		class := c.rackClass[rack+1] - 1
		if class < 0 {
			class = c.unowned(c.rackSetHub(set, rack))
			c.rackClass[rack+1] = class + 1
			classSize = sol.classSize
		}
		partClass[i] = class
		classSize[class]++
	}
}

// mark makes inSet tell the members of subscriber set set.
func (c *classifier) mark(set int32) {
	if set == c.marked {
		return
	}
	if c.marked >= 0 {
		for _, m := range c.sol.sets[c.marked] {
			c.inSet[m] = false
		}
	}
	for _, m := range c.sol.sets[set] {
		c.inSet[m] = true
	}
	c.marked = set
}

// rackSetHub returns the hub of (subscriber set set, rack set rack),
// through the cache of the set being read.
func (c *classifier) rackSetHub(set, rack int32) int32 {
	if int(rack+1) >= len(c.rackHub) {
		c.rackHub = append(c.rackHub, make([]int32, int(rack+2)-len(c.rackHub))...)
	}
	h := c.rackHub[rack+1] - 1
	if h < 0 {
		h = c.sol.hub(c.hubByKey, set, rack)
		c.rackHub[rack+1] = h + 1
	}
	return h
}

// ownedClass returns the class of a partition of hub validly owned by o (a
// member number, or negative for none); an owner that does not subscribe
// to the topic counts as none.
func (c *classifier) ownedClass(hub, o int32) int32 {
	if o < 0 || !c.inSet[o] {
		return c.unowned(hub)
	}
	if c.lastHub[o] == hub {
		return c.lastClass[o]
	}
	key := uint64(uint32(hub))<<32 | uint64(uint32(o))
	class, ok := c.classByKey[key]
	if !ok {
		class = c.sol.newClass(hub, o)
		c.classByKey[key] = class
	}
	c.lastHub[o], c.lastClass[o] = hub, class
	return class
}

// unowned returns hub's class of partitions without an owner, numbering it
// if it is new.
func (c *classifier) unowned(hub int32) int32 {
	for int(hub) >= len(c.unownedClass) {
		c.unownedClass = append(c.unownedClass, -1)
	}
	class := c.unownedClass[hub]
	if class < 0 {
		class = c.sol.newClass(hub, -1)
		c.unownedClass[hub] = class
	}
	return class
}

// hub returns the number of the hub (subscriber set s, rack set r),
// numbering it next if it is new.
func (sol *solver) hub(byKey map[uint64]int32, s, r int32) int32 {
	key := uint64(uint32(s))<<32 | uint64(uint32(r))
	h, ok := byKey[key]
	if !ok {
		h = int32(len(sol.hubSet))
		byKey[key] = h
		sol.hubSet = append(sol.hubSet, s)
		sol.hubRack = append(sol.hubRack, r)
	}
	return h
}

func (sol *solver) newClass(hub, owner int32) int32 {
	c := int32(len(sol.classHub))
	sol.classHub = append(sol.classHub, hub)
	sol.classOwner = append(sol.classOwner, owner)
	sol.classSize = append(sol.classSize, 0)
	return c
}
