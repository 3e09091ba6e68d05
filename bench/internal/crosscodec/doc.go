// Package crosscodec holds the cross-tests of the wire codec against the
// bytes sarama and franz-go's kmsg produce and accept: each side's encoding
// decodes on the other side to the same values, and sarama's own strategies
// read the user data we write as we mean it. It has no API; it lives in the
// tooling module so that the core never requires a peer client.
package crosscodec
