// Package assignortest is a conformance kit for implementations of
// [assignor.Assignor], in the manner of testing/fstest and testing/slogtest:
// it feeds an assignor a series of groups and reports every way its plans
// break the contract.
//
// # Use
//
// In a test of your assignor:
//
//	func TestConformance(t *testing.T) {
//		assignortest.Run(t, mypkg.New)
//	}
//
// The package has two entry points. [Run] runs each case as a subtest named
// after it, so one case can be rerun with
// -run 'TestConformance/permutation-invariance', and reports each failure
// at the line that called Run. [Check] runs them all and returns one error
// joining every failure, for harnesses without a *testing.T. Both take a
// constructor of any type that implements [assignor.Assignor] (mypkg.New may
// return *mypkg.Assignor, as sticky.New returns *sticky.Assignor), not an
// assignor, so the kit can compare a fresh instance with a used one (an
// assignor must keep no state between calls).
//
// # Benchmarking
//
// [Benchmark] times an assignor's Assign on the groups of the repository's
// bench (`go run ./bench`): its shapes and scenarios from package workload,
// one sub-benchmark each, and reports each last plan's spread, moves and
// withheld partitions with b.ReportMetric:
//
//	func BenchmarkMyAssignor(b *testing.B) {
//		assignortest.Benchmark(b, mypkg.New)
//	}
//
// To compare with ours and the peers' (franz-go, sarama) bytes to bytes, as
// their leaders run, register the assignor with the bench module's runner
// package (github.com/kgroup/assignor/bench/runner).
//
// Examples (go doc -all, or pkg.go.dev): Check's runs the kit on sticky.New;
// the package's "failure" example shows what a failure looks like;
// Benchmark's runs it on a tiny shape. The root
// package's Example writes a range assignor and runs the kit on it.
//
// # Failures
//
// Each failure is a [*CaseError]: what one case found in one call of Assign.
// Its text names the case (and which of the case's groups or rounds), says
// on one line the rule broken and how a correct assignor keeps it (for an
// assignor that accepts an empty member ID: start Assign with
// [assignor.NewIndex], which rejects it), lists every violation in that
// plan, each naming the member, topic and partition at fault (a partition
// assigned twice names every member holding it; entries out of order say
// the order expected; a panic comes with its stack), and shows the group
// and the plan as Assign returned it, copied before the kit checked
// anything, one line a member:
//
//	more-members-than-partitions: 1 violation
//	  rule: With more members than partitions every partition is still assigned exactly once. fix: Give each partition to exactly one member, and an entry without partitions to each member left over.
//	  assignor: partition assigned to more than one member: t0/0: member "m1" and member "m0"
//	  group (5 members, 1 topic):
//	    m0: t0
//	    …
//	    topics: t0(2)
//	  plan:
//	    m0: t0[0]
//	    m1: t0[0 1]
//	    …
//
// The text is printable whatever the assignor returned: bytes that are not
// (a NUL in a topic name, say) are escaped as in a Go string literal, so
// that grep reads a test log as text.
//
// It wraps the violations, so errors.Is matches the root package's sentinels
// (such as [assignor.ErrAssignedTwice], [assignor.ErrNotOwner]) and this
// package's ([ErrOrderDependent], [ErrUnbalanced] and the rest), and
// errors.As finds the [*assignor.PartitionError] or [*assignor.MemberError]
// with the details, and the CaseError with the group, the plan, the rule and
// the fix.
//
// # Cases
//
// Every plan the kit gets goes through [assignor.CheckPlan]: one entry per
// member, in order; no partition twice; only to subscribers; nothing outside
// the metadata; everything subscribed assigned. On top of that the cases
// probe an empty group, members without subscriptions, unknown topics, one
// member, more members than partitions, different subscriptions, every kind
// of claim (valid, stale, contested, outside the metadata, negative, without
// generation, duplicated), groups that cannot be assigned, determinism,
// permutation invariance (the same group shuffled with fixed seeds),
// mutation and aliasing of the input, and a group of 1,000 members and
// 100,000 partitions, whose time [Run] logs (it is not asserted; under
// -short, Run skips that case).
//
// A panic in Assign or Name is recovered and reported as a failure of the
// case ([ErrPanic]), with the stack from the panic down to the method the kit
// called; the kit carries on.
//
// # Declared capabilities
//
// The kit checks what an assignor declares, and only that; it finds each
// declaration by type assertion, as clients do:
//
//   - Cooperative ([assignor.Supports] reports [assignor.Cooperative]):
//     every first plan is checked with the cooperative rules, so a claimed
//     partition may appear only in its valid owner's plan (KIP-429, with
//     KIP-792's generations) and may be withheld. The kit then runs the
//     follow-up round, in which every member owns what the first plan gave
//     it, at the next generation, and checks that plan with the cooperative
//     rules and for completeness. Balance and stickiness are checked on this
//     settled plan.
//   - Balanced ([assignor.IsBalanced]): with identical subscriptions no
//     member gets more than one partition above another, in several shapes,
//     including ownership piled on one member.
//   - Sticky ([assignor.IsSticky]): when valid ownership is complete and
//     balanced, the plan keeps it; after one member joins or leaves, with
//     identical subscriptions, the partitions moved away from their owners
//     number exactly Σ max(0, owned − final) over the members, and no more
//     than the least balance allows.
//
// [Run] skips, with a message, the cases whose capability is not declared.
//
// # KIPs
//
// KIP-54 (sticky), KIP-345 (static members), KIP-429 (cooperative
// rebalancing), KIP-792 (generations of claims).
package assignortest
