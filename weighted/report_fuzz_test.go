package weighted

import (
	"errors"
	"fmt"
	"testing"
)

// FuzzDecodeReport: any bytes decode to a report or an error wrapping
// ErrUserData, never a panic; what decodes re-encodes to bytes that decode
// to the same report (a 16-bit weight has several encodings of one value,
// so the bytes may differ).
func FuzzDecodeReport(f *testing.F) {
	f.Add([]byte{})
	f.Add(userDataPrefix(4, userDataVersion))
	f.Add(appendReport(userDataPrefix(7, reportVersion), Report{Topics: []TopicReport{
		{Topic: "a", Partitions: []int32{0, 3}, Weights: []int64{900, 5000}, Rest: 2, RestWeight: 40},
		{Topic: "b", Partitions: []int32{1}, Weights: []int64{0}},
	}}))
	f.Add(append(userDataPrefix(7, reportVersion), 0xff, 0xff, 0xff, 0xff))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, version, err := decode(b)
		if err != nil {
			if !errors.Is(err, ErrUserData) {
				t.Fatalf("error %v does not wrap ErrUserData", err)
			}
			return
		}
		if version != reportVersion {
			return
		}
		again := appendReport(userDataPrefix(r.Generation, reportVersion), r)
		back, _, err := decode(again)
		if err != nil || fmt.Sprint(back) != fmt.Sprint(r) {
			t.Fatalf("re-encoded %x decodes to %v (%v), want %v", again, back, err, r)
		}
	})
}
