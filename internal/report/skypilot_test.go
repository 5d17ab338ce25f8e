package report

import "testing"

func TestSkyPilotCloud(t *testing.T) {
	for in, want := range map[string]string{
		"catalogs/v7/lambda/vms.csv": "lambda", `C:\cat\aws\vms.csv`: "aws", "vms.csv": "", "lambda/other.csv": "",
		"../../pricing/testdata/skypilot/lambda_vms.csv": "lambda", "runpod-vms.csv": "runpod", "_vms.csv": "", "aws_vms_gpu.csv": "",
	} {
		if got := skyPilotCloud(in); got != want {
			t.Errorf("skyPilotCloud(%q) = %q, want %q", in, got, want)
		}
	}
}
