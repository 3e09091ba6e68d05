package wire_test

import (
	"io"
	"testing"

	"github.com/kgroup/assignor/wire"
)

// TestErrorText pins how the typed errors read: the package named once, a
// sentinel of this package first, any other cause last and untouched.
func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a decoding sentinel leads, then message, field and offset",
			&wire.DecodeError{Message: "subscription", Field: "owned_partitions[0].partitions", Offset: 42, Err: wire.ErrTruncated},
			"wire: input truncated: subscription owned_partitions[0].partitions at byte 42"},
		{"an encoding sentinel leads, then message and field",
			&wire.EncodeError{Message: "assignment", Field: "assigned_partitions[1].topic", Err: wire.ErrTooLong},
			"wire: too long to encode: assignment assigned_partitions[1].topic"},
		{"a foreign cause follows the context untouched",
			&wire.DecodeError{Message: "sticky user data", Field: "generation", Offset: 7, Err: io.ErrUnexpectedEOF},
			"wire: sticky user data generation at byte 7: unexpected EOF"},
		{"no cause: the context alone",
			&wire.EncodeError{Message: "subscription", Field: "rack_id"},
			"wire: subscription rack_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}
