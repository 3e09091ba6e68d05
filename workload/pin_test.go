package workload

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"testing"
)

// digest is a hash of what a contender sees, fed field by field.
type digest struct {
	h   hash.Hash
	buf []byte
}

func newDigest() *digest { return &digest{h: sha256.New()} }

func (d *digest) str(s string) *digest {
	d.buf = binary.AppendUvarint(d.buf[:0], uint64(len(s)))
	d.h.Write(append(d.buf, s...))
	return d
}

func (d *digest) strs(ss []string) *digest {
	d.num(int64(len(ss)))
	for _, s := range ss {
		d.str(s)
	}
	return d
}

func (d *digest) num(n int64) *digest {
	d.h.Write(binary.AppendVarint(d.buf[:0], n))
	return d
}

func (d *digest) members(tag string, ms []Member) {
	d.str(tag).num(int64(len(ms)))
	for _, m := range ms {
		d.str(m.ID).strs(m.Topics).str(m.Rack)
	}
}

// add feeds every fact of c a contender sees, in order.
func (d *digest) add(c Case) {
	d.num(int64(len(c.Topics)))
	for _, t := range c.Topics {
		d.str(t.Name).num(int64(len(t.Partitions)))
		for _, p := range t.Partitions {
			d.num(int64(p))
		}
		d.num(int64(len(t.ReplicaRacks)))
		for _, rs := range t.ReplicaRacks {
			d.strs(rs)
		}
	}
	d.members("before", c.Before)
	d.members("after", c.After)
}

func (d *digest) addScript(sc Script) {
	d.str(sc.Name)
	d.add(Case{Topics: sc.Topics, After: sc.Initial})
	for _, ev := range sc.Events {
		d.strs(ev.Leave)
		d.members("join", ev.Join)
	}
}

func (d *digest) sum() string { return fmt.Sprintf("%x", d.h.Sum(nil)[:8]) }

// TestPinned pins the generated groups of every scenario and script on the
// bench's shapes and default seed, so that the bench's figures stay
// comparable from run to run: a change to the generator fails here. The
// digests were taken from the bench's own builder before it moved here.
func TestPinned(t *testing.T) {
	tests := []struct {
		shape   Shape
		scripts bool
		want    string
	}{
		{Shape{Topics: 4, Partitions: 6, Members: 5}, true, "cd2d163bcf95c046"},
		{Shapes()[0], true, "9601329e33439d50"},
		{Shapes()[1], true, "c35bc3327bd372f9"},
		{Shapes()[2], false, "88bd34466a768a55"},
		{Shapes()[3], false, "d4d07e08a7bc58a7"}, // also GrowthShapes()[1]
		{FullShape(), false, "66ab2ea0f0b8b62f"},
		{GrowthShapes()[0], false, "ec8c260e01572bbf"},
		{GrowthShapes()[2], false, "8e5b6c101c06f3df"},
		{GrowthShapes()[3], false, "493f871de8f67df0"},
	}
	for _, tt := range tests {
		t.Run(tt.shape.String(), func(t *testing.T) {
			if raceEnabled && tt.shape.Total() > 100_000 {
				t.Skip("the race detector makes the million-partition shapes slow; the plain run checks them")
			}
			d := newDigest()
			for _, sc := range Scenarios() {
				c, err := Build(tt.shape, sc, DefaultSeed)
				if err != nil {
					t.Fatal(err)
				}
				d.add(c)
			}
			if tt.scripts {
				for _, name := range Scripts() {
					sc, err := NewScript(name, tt.shape, DefaultSeed)
					if err != nil {
						t.Fatal(err)
					}
					d.addScript(sc)
				}
			}
			if got := d.sum(); got != tt.want {
				t.Errorf("digest %s, pinned %s", got, tt.want)
			}
		})
	}
}
