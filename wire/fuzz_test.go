package wire_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/kgroup/assignor/wire"
)

// The fuzz targets check that no input makes a decoder panic, that every
// failure is a *wire.DecodeError naming a field inside the input, and that
// whatever decodes is stable: decode, encode, decode gives the same value,
// and encoding it again gives the same bytes. Seeds: every hand-written
// vector, plus testdata/fuzz/<target>/ (bytes captured from sarama and
// franz-go, and inputs the fuzzer found interesting).

func checkDecodeError(t *testing.T, err error, in []byte) {
	t.Helper()
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %q (%T) is not a *wire.DecodeError", err, err)
	}
	if de.Field == "" || de.Offset < 0 || de.Offset > len(in) {
		t.Fatalf("error %q names no field inside the %d-byte input", err, len(in))
	}
	if !errors.Is(err, wire.ErrTruncated) && !errors.Is(err, wire.ErrNegativeLength) && !errors.Is(err, wire.ErrUnsupportedVersion) {
		t.Fatalf("error %q wraps no documented sentinel", err)
	}
}

func FuzzDecodeSubscription(f *testing.F) {
	for _, v := range subscriptionVectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := wire.DecodeSubscription(in)
		if err != nil {
			checkDecodeError(t, err, in)
			return
		}
		enc := s.AppendTo(nil)
		again, err := wire.DecodeSubscription(enc)
		if err != nil {
			t.Fatalf("re-decoding %#v: %v", s, err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("unstable:\n %#v\n %#v", s, again)
		}
		if enc2 := again.AppendTo(nil); !bytes.Equal(enc2, enc) {
			t.Fatalf("re-encoding differs:\n % x\n % x", enc, enc2)
		}
	})
}

func FuzzDecodeAssignment(f *testing.F) {
	for _, v := range assignmentVectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		a, err := wire.DecodeAssignment(in)
		if err != nil {
			checkDecodeError(t, err, in)
			return
		}
		enc := a.AppendTo(nil)
		again, err := wire.DecodeAssignment(enc)
		if err != nil {
			t.Fatalf("re-decoding %#v: %v", a, err)
		}
		if !reflect.DeepEqual(again, a) {
			t.Fatalf("unstable:\n %#v\n %#v", a, again)
		}
		if enc2 := again.AppendTo(nil); !bytes.Equal(enc2, enc) {
			t.Fatalf("re-encoding differs:\n % x\n % x", enc, enc2)
		}
	})
}

func FuzzDecodeStickyUserData(f *testing.F) {
	for _, v := range stickyVectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		u, err := wire.DecodeStickyUserData(in)
		if err != nil {
			checkDecodeError(t, err, in)
			return
		}
		enc := u.AppendTo(nil)
		again, err := wire.DecodeStickyUserData(enc)
		if err != nil {
			t.Fatalf("re-decoding %#v: %v", u, err)
		}
		if !reflect.DeepEqual(again, u) {
			t.Fatalf("unstable:\n %#v\n %#v", u, again)
		}
		if enc2 := again.AppendTo(nil); !bytes.Equal(enc2, enc) {
			t.Fatalf("re-encoding differs:\n % x\n % x", enc, enc2)
		}
	})
}
