package wire

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// Kafka's non-flexible primitives, big-endian:
//
//	int16, int32          fixed width
//	string                int16 length, then the bytes; -1 is null
//	bytes                 int32 length, then the bytes; -1 is null
//	[T] (array)           int32 count, then count Ts; -1 is null
//
// Every decoder here works in two passes over its input. The scan pass checks
// each length and count against the bytes left (an array of n int32 needs 4n
// bytes, of n strings 2n, of n topic-partitions entries 6n) and measures what
// the result will hold; nothing is allocated before the whole input has been
// checked, so a forged length can never make a decoder allocate more than the
// input describes. The fill pass then allocates each result once, at its
// exact size, and reads the checked bytes without further checks.
//
// A null array reads as empty and a null non-nullable string as "", as sarama
// and franz-go read them; a length below -1 is [ErrNegativeLength].

var be = binary.BigEndian

// maxString is the longest string an int16 length can carry.
const maxString = math.MaxInt16

// reader is the scan pass's cursor. Its methods return bare sentinels; the
// caller wraps them with the field's name (built only on failure) via fail.
type reader struct {
	b   []byte
	off int
	msg string
}

func (r *reader) left() int { return len(r.b) - r.off }

func (r *reader) fail(field string, at int, err error) error {
	return &DecodeError{Message: r.msg, Field: field, Offset: at, Err: err}
}

func (r *reader) int16() (int16, error) {
	if r.left() < 2 {
		return 0, ErrTruncated
	}
	v := int16(be.Uint16(r.b[r.off:]))
	r.off += 2
	return v, nil
}

func (r *reader) int32() (int32, error) {
	if r.left() < 4 {
		return 0, ErrTruncated
	}
	v := int32(be.Uint32(r.b[r.off:]))
	r.off += 4
	return v, nil
}

// skipString checks the string at the cursor, moves past it and returns its
// length (0 when null).
func (r *reader) skipString() (int, error) {
	n, err := r.int16()
	if err != nil {
		return 0, err
	}
	l, err := r.length(int32(n), 1)
	r.off += l
	return l, err
}

// skipBytes checks the nullable bytes at the cursor, moves past them and
// returns their length (0 when null).
func (r *reader) skipBytes() (int, error) {
	n, err := r.count(1)
	r.off += n
	return n, err
}

// count reads an array count (null reads as 0) and checks that the bytes left
// can hold that many elements of at least minSize bytes each.
func (r *reader) count(minSize int) (int, error) {
	n, err := r.int32()
	if err != nil {
		return 0, err
	}
	return r.length(n, minSize)
}

// length checks a length or count n just read, of elements of at least
// minSize bytes, against the bytes left: null (-1) reads as 0, below -1 is
// [ErrNegativeLength], more than the bytes left can hold is [ErrTruncated].
// It does not move the cursor.
func (r *reader) length(n int32, minSize int) (int, error) {
	switch {
	case n == -1:
		return 0, nil
	case n < -1:
		return 0, ErrNegativeLength
	case int64(n) > int64(r.left()/minSize):
		return 0, ErrTruncated
	}
	return int(n), nil
}

// stringsShape is a checked array of strings: where it starts, how many
// entries, and their total length.
type stringsShape struct {
	start, entries, bytes int
}

func (r *reader) scanStrings(field string) (stringsShape, error) {
	sh := stringsShape{start: r.off}
	n, err := r.count(2)
	if err != nil {
		return sh, r.fail(field, sh.start, err)
	}
	sh.entries = n
	for i := range n {
		at := r.off
		l, err := r.skipString()
		if err != nil {
			return sh, r.fail(elemField(field, i, ""), at, err)
		}
		sh.bytes += l
	}
	return sh, nil
}

// tpShape is a checked array of topic-partitions entries
// ([topic string, partitions [int32]]): where it starts, how many entries,
// partitions and topic-name bytes it holds.
type tpShape struct {
	start, entries, partitions, names int
}

func (r *reader) scanTopicPartitions(field string) (tpShape, error) {
	sh := tpShape{start: r.off}
	n, err := r.count(6)
	if err != nil {
		return sh, r.fail(field, sh.start, err)
	}
	sh.entries = n
	for i := range n {
		at := r.off
		l, err := r.skipString()
		if err != nil {
			return sh, r.fail(elemField(field, i, "topic"), at, err)
		}
		sh.names += l
		at = r.off
		m, err := r.count(4)
		if err != nil {
			return sh, r.fail(elemField(field, i, "partitions"), at, err)
		}
		r.off += 4 * m
		sh.partitions += m
	}
	return sh, nil
}

// readString reads a string already checked by the scan pass. Its bytes are
// appended to names and the result is a substring of names' buffer, so all
// strings of one decoded value share one allocation. Strings taken from a
// strings.Builder stay valid: it only ever appends.
func readString(b []byte, off int, names *strings.Builder) (string, int) {
	n := int(int16(be.Uint16(b[off:])))
	off += 2
	if n <= 0 {
		return "", off
	}
	names.Write(b[off : off+n])
	all := names.String()
	return all[len(all)-n:], off + n
}

// readStrings decodes an array checked by scanStrings; nil when empty.
func readStrings(b []byte, sh stringsShape, names *strings.Builder) []string {
	if sh.entries == 0 {
		return nil
	}
	out := make([]string, sh.entries)
	off := sh.start + 4
	for i := range out {
		out[i], off = readString(b, off, names)
	}
	return out
}

// readTopicPartitions decodes an array checked by scanTopicPartitions; nil
// when empty. All partition slices share one backing array, each with its
// capacity clipped to its length, so appending to one never writes into
// another. A topic with no partitions has nil Partitions.
func readTopicPartitions(b []byte, sh tpShape, names *strings.Builder) []assignor.TopicPartitions {
	if sh.entries == 0 {
		return nil
	}
	out := make([]assignor.TopicPartitions, sh.entries)
	var parts []int32
	if sh.partitions > 0 {
		parts = make([]int32, sh.partitions)
	}
	off := sh.start + 4
	for i := range out {
		out[i].Topic, off = readString(b, off, names)
		m := int(int32(be.Uint32(b[off:])))
		off += 4
		if m <= 0 {
			continue
		}
		ps := parts[:m:m]
		parts = parts[m:]
		src := b[off : off+4*m]
		for j := range ps {
			ps[j] = int32(be.Uint32(src[4*j:]))
		}
		off += 4 * m
		out[i].Partitions = ps
	}
	return out
}

// readBytes copies nullable bytes checked by skipBytes at off; nil when null.
func readBytes(b []byte, off int) []byte {
	n := int(int32(be.Uint32(b[off:])))
	if n < 0 {
		return nil
	}
	return slices.Clone(b[off+4 : off+4+n])
}

// clip cuts s to the longest string an int16 length can carry; the Validate
// methods report such strings.
func clip(s string) string {
	if len(s) > maxString {
		return s[:maxString]
	}
	return s
}

func stringSize(s string) int { return 2 + len(clip(s)) }

func stringsSize(ss []string) int {
	n := 4
	for _, s := range ss {
		n += stringSize(s)
	}
	return n
}

func topicPartitionsSize(tps []assignor.TopicPartitions) int {
	n := 4
	for _, tp := range tps {
		n += stringSize(tp.Topic) + 4 + 4*len(tp.Partitions)
	}
	return n
}

// writer fills a buffer grown once to its final size.
type writer struct {
	b   []byte
	off int
}

// grow returns a writer that appends exactly n bytes to dst, allocating at
// most once.
func grow(dst []byte, n int) writer {
	b := slices.Grow(dst, n)
	return writer{b: b[:len(dst)+n], off: len(dst)}
}

func (w *writer) int16(v int16) {
	be.PutUint16(w.b[w.off:], uint16(v))
	w.off += 2
}

func (w *writer) int32(v int32) {
	be.PutUint32(w.b[w.off:], uint32(v))
	w.off += 4
}

func (w *writer) string(s string) {
	s = clip(s)
	w.int16(int16(len(s)))
	w.off += copy(w.b[w.off:], s)
}

// nullableString writes "" as null.
func (w *writer) nullableString(s string) {
	if s == "" {
		w.int16(-1)
		return
	}
	w.string(s)
}

// bytes writes nil as null.
func (w *writer) bytes(p []byte) {
	if p == nil {
		w.int32(-1)
		return
	}
	w.int32(int32(len(p)))
	w.off += copy(w.b[w.off:], p)
}

func (w *writer) strings(ss []string) {
	w.int32(int32(len(ss)))
	for _, s := range ss {
		w.string(s)
	}
}

func (w *writer) topicPartitions(tps []assignor.TopicPartitions) {
	w.int32(int32(len(tps)))
	for _, tp := range tps {
		w.string(tp.Topic)
		w.int32(int32(len(tp.Partitions)))
		dst := w.b[w.off : w.off+4*len(tp.Partitions)]
		for j, p := range tp.Partitions {
			be.PutUint32(dst[4*j:], uint32(p))
		}
		w.off += len(dst)
	}
}

// validation helpers for the Validate methods.

type validator struct {
	msg  string
	errs []error
}

func (v *validator) fail(field string, err error) {
	v.errs = append(v.errs, &EncodeError{Message: v.msg, Field: field, Err: err})
}

func (v *validator) count(field string, n int) {
	if int64(n) > math.MaxInt32 {
		v.fail(field, ErrTooLong)
	}
}

func (v *validator) string(field string, s string) {
	if len(s) > maxString {
		v.fail(field, ErrTooLong)
	}
}

func (v *validator) strings(field string, ss []string) {
	v.count(field, len(ss))
	for i, s := range ss {
		if len(s) > maxString {
			v.fail(elemField(field, i, ""), ErrTooLong)
		}
	}
}

func (v *validator) topicPartitions(field string, tps []assignor.TopicPartitions) {
	v.count(field, len(tps))
	for i, tp := range tps {
		if len(tp.Topic) > maxString {
			v.fail(elemField(field, i, "topic"), ErrTooLong)
		}
		if int64(len(tp.Partitions)) > math.MaxInt32 {
			v.fail(elemField(field, i, "partitions"), ErrTooLong)
		}
	}
}

func (v *validator) err() error { return joinErrs(v.errs) }

// joinErrs is errors.Join, except that a single error is returned as is.
func joinErrs(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}
