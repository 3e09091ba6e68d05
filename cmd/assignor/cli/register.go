package cli

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
)

// Entry is an assignor that `whatif -assignor KEY` can plan with: one of
// the built-in ones, or one of yours added with [Register]. Build it with
// [Assignor].
type Entry struct {
	// Key names it on the command line: letters, digits and dashes.
	Key string
	// Name is a short description shown by -list; Key if empty.
	Name string
	// New returns a fresh assignor; whatif calls it once per run.
	New func() assignor.Assignor
}

// Assignor returns the [Entry] for an assignor of any concrete type, so
// that a constructor returning *T registers as it is:
//
//	cli.Register(cli.Assignor("mine", "my assignor", mypkg.New)) // mypkg.New() *mypkg.Assignor
//
// A nil newT gives an Entry that Register rejects.
func Assignor[T assignor.Assignor](key, name string, newT func() T) Entry {
	e := Entry{Key: key, Name: name}
	if newT != nil {
		e.New = func() assignor.Assignor {
			a := newT()
			if isNil(a) {
				return nil // a typed nil: Register rejects it
			}
			return a
		}
	}
	return e
}

// isNil reports whether v is nil or a nil pointer, map, slice, func or
// channel inside an interface.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return r.IsNil()
	}
	return false
}

// keyPattern is what a key may hold.
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

var (
	registryMu sync.Mutex
	registry   = builtins()
)

// builtins are the assignors of this module, by key.
func builtins() []Entry {
	return []Entry{
		Assignor("sticky", "eager sticky: count-balanced, fewest moves (package sticky)", sticky.New),
		Assignor("cooperative-sticky", "cooperative.Wrap(sticky.New()): sticky, incremental (KIP-429)", func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }),
		Assignor("round-robin", "Java-compatible round-robin (package roundrobin)", roundrobin.New),
		Assignor("weighted", "eager load-aware: balances measured records/s within a count bound (package weighted)", weighted.New),
		Assignor("cooperative-weighted", "cooperative.Wrap(weighted.New()): load-aware, incremental (KIP-429)", func() assignor.Assignor { return cooperative.Wrap(weighted.New()) }),
	}
}

// Register adds e to the assignors `whatif -assignor` accepts. Call it
// before [Main] or [Run]. It fails on a malformed or taken key, a nil New,
// or a New that returns nil or an assignor with an empty name.
func Register(e Entry) error {
	if !keyPattern.MatchString(e.Key) {
		return fmt.Errorf("cli: key %q: want letters, digits and dashes", e.Key)
	}
	if e.New == nil {
		return fmt.Errorf("cli: assignor %q: New is nil", e.Key)
	}
	probe := e.New()
	if probe == nil {
		return fmt.Errorf("cli: assignor %q: New returned nil", e.Key)
	}
	if probe.Name() == "" {
		return fmt.Errorf("cli: assignor %q: its Name is empty", e.Key)
	}
	if e.Name == "" {
		e.Name = e.Key
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, taken := lookupLocked(e.Key); taken {
		return fmt.Errorf("cli: key %q is taken (see whatif -list)", e.Key)
	}
	registry = append(registry, e)
	return nil
}

// lookup returns the entry registered under key.
func lookup(key string) (Entry, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	return lookupLocked(key)
}

func lookupLocked(key string) (Entry, bool) {
	i := slices.IndexFunc(registry, func(e Entry) bool { return e.Key == key })
	if i < 0 {
		return Entry{}, false
	}
	return registry[i], true
}

// keys returns every registered key, built-in ones first.
func keys() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]string, len(registry))
	for i, e := range registry {
		out[i] = e.Key
	}
	return out
}

// entries returns a copy of the registry, built-in ones first.
func entries() []Entry {
	registryMu.Lock()
	defer registryMu.Unlock()
	return slices.Clone(registry)
}

// unknownAssignor is the error for a key nobody registered.
func unknownAssignor(key string) error {
	return fmt.Errorf("unknown assignor %q: want one of %s (whatif -list describes them)", key, strings.Join(keys(), ", "))
}
