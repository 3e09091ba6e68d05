// Package e2e is the real-broker interop suite: Apache Kafka's own broker and Java consumer
// in one group with sarama members running our cooperative-sticky.
package e2e
