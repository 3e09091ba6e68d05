package groupsim_test

import (
	"testing"

	"github.com/kgroup/assignor/internal/rapidseed"
)

func TestMain(m *testing.M) { rapidseed.Main(m) }
