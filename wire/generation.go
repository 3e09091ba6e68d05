package wire

import "github.com/kgroup/assignor"

// UserDataGeneration reads the generation of a member's claims from its
// subscription user data, for a subscription that carries none (v0 and v1:
// Java before Kafka 3.4, sarama configured below Kafka 3.2). It reads the
// two layouts cooperative members send there:
//
//   - 4 bytes: the cooperative-sticky user data ([CooperativeUserData]),
//     which Java's, sarama's and this module's cooperative assignors send by
//     default: the generation itself;
//   - any other length: the eager sticky layout ([StickyUserData]) that
//     Java, sarama and franz-go share, which this module's cooperative
//     wrapper sends around sticky with cooperative.Config.InnerUserData: the
//     generation after the assignment ([assignor.NoGeneration] for its
//     version 0, which has none).
//
// Empty or nil user data is [assignor.NoGeneration] with no error; so are,
// with a [*DecodeError], bytes of neither layout. A caller must prefer the
// subscription's own generation (v2+), as Java does.
//
// The only sticky user data of 4 bytes is version 0 with no partitions,
// which has no generation; read as cooperative user data it is generation
// 0, the lowest real one. A Java leader reads only the first layout: it
// takes the first 4 bytes of longer user data as the generation, so it
// reads sticky user data's topic count instead.
func UserDataGeneration(userData []byte) (generation int32, err error) {
	if len(userData) == 0 || len(userData) == 4 {
		return DecodeCooperativeUserData(userData)
	}
	u, err := DecodeStickyUserData(userData)
	if err != nil {
		return assignor.NoGeneration, err
	}
	return max(u.Generation, assignor.NoGeneration), nil
}
