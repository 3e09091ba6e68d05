package assignortest

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/kgroup/assignor"
)

// maxStackFrames is how many frames of a panic's stack a failure prints.
const maxStackFrames = 24

// panicError is a panic in the assignor, recovered: what panicked, the
// value, and the stack from the panic down to the assignor's method. It
// matches [ErrPanic], and the panic value too when that is an error.
type panicError struct {
	method string // "Assign" or "Name"
	value  any
	stack  []runtime.Frame // innermost first, the kit's own frames left out
	more   int             // frames left out past maxStackFrames
}

func (e *panicError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: in %s: %v", ErrPanic.Error(), e.method, e.value)
	if len(e.stack) == 0 {
		return b.String()
	}
	b.WriteString("\nstack, innermost first:")
	for _, f := range e.stack {
		fmt.Fprintf(&b, "\n  %s\n    %s:%d", f.Function, f.File, f.Line)
	}
	if e.more > 0 {
		fmt.Fprintf(&b, "\n  … %d more frame%s", e.more, plural(e.more))
	}
	return b.String()
}

// Is reports whether target is ErrPanic.
func (e *panicError) Is(target error) bool { return target == ErrPanic }

// Unwrap returns the panic value if it is an error, else nil. (Not a list
// with ErrPanic: the kit reads an error that unwraps to a list as joined
// violations.)
func (e *panicError) Unwrap() error {
	err, _ := e.value.(error)
	return err
}

// recovered builds the panicError for value, recovered by a deferred
// function of recoverer (safeAssign or safeName, the function that called
// the assignor's method), with the stack of the panicking goroutine: the
// frames between the runtime's panic and recoverer. Call it from the deferred
// function itself.
func recovered(method string, value any, recoverer string) *panicError {
	pcs := make([]uintptr, 256)
	pcs = pcs[:runtime.Callers(1, pcs)]
	var all []runtime.Frame
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		all = append(all, f)
		if !more {
			break
		}
	}
	// The frames down to the first runtime.gopanic are the recovery's
	// (below it, a panic in a deferred call may show an earlier gopanic: its
	// frames are the assignor's); those from recoverer down are the kit's
	// and the test's.
	start := 0
	for i, f := range all {
		if f.Function == "runtime.gopanic" {
			start = i + 1
			break
		}
	}
	end := len(all)
	for i := start; i < len(all); i++ {
		if strings.HasSuffix(all[i].Function, "/assignortest."+recoverer) {
			end = i
			break
		}
	}
	e := &panicError{method: method, value: value, stack: all[start:end]}
	if len(e.stack) > maxStackFrames {
		e.more = len(e.stack) - maxStackFrames
		e.stack = e.stack[:maxStackFrames]
	}
	return e
}

// safeAssign calls a.Assign(g), turning a panic into a *panicError.
func safeAssign(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, err error) {
	defer func() {
		if v := recover(); v != nil {
			plan, err = assignor.Plan{}, recovered("Assign", v, "safeAssign")
		}
	}()
	return a.Assign(g)
}

// safeName calls a.Name(), turning a panic into a *panicError.
func safeName(a assignor.Assignor) (name string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered("Name", v, "safeName")
		}
	}()
	return a.Name(), nil
}
