package gpuplan_test

import (
	"os"
	"strings"
	"testing"
)

// TestLicense: pkg.go.dev shows documentation only for a module with a license it
// recognises, and the README says which one it is.
func TestLicense(t *testing.T) {
	lic, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(lic), "MIT License\n") || !strings.Contains(string(lic), `THE SOFTWARE IS PROVIDED "AS IS"`) {
		t.Errorf("LICENSE is not the MIT text")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "## License\n\nMIT: see [LICENSE](LICENSE).") {
		t.Errorf("README.md does not name the license")
	}
}
