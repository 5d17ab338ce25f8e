package catalog

// Source is a reference a card's figures come from, named in Card.Sources by
// its key.
type Source struct {
	Key   string `json:"key"`   // as in Card.Sources: "NV-A100"
	Title string `json:"title"` // what the source is
	Kind  string `json:"kind"`  // "datasheet", "whitepaper", "vendor-docs", "measured" or "secondary"
}

// Sources returns the table of source keys used by the built-in catalog, sorted
// by key. The keys come from the reference card table the catalog was built from;
// where that table names a secondary source only by its key, the title says so
// rather than guess one. A fresh slice is returned on every call.
func Sources() []Source {
	return []Source{
		{"4090D-2", "Secondary sources for the GeForce RTX 4090 D (China variant); no vendor datasheet", "secondary"},
		{"A10G-2", "Secondary sources for the A10G (AWS's A10 variant): third-party spec tables for its FP32 rate, memory type and bandwidth, and nvidia-smi's power limit on G5 instances for its TDP; NVIDIA and AWS publish no A10G datasheet or tensor rates, so the catalog records none", "secondary"},
		{"A800-2", "Secondary sources for the A800 (China variant of the A100); no public vendor datasheet", "secondary"},
		{"AC-910B", "Secondary: Arthur Chiao's notes on the Ascend 910B (arthurchiao.art, \"GPU Performance (Data Sheets) Quick Reference (2023)\" and the 2023 notes on a 910B server, with npu-smi output): 64 GB HBM2e, 400 W, HCCS of 56 GB/s between any two NPUs and 392 GB/s in all over the full mesh of an eight-NPU server (npu-smi info -t topo shows HCCS between every pair), npu-smi HBM capacity 65536 MB per NPU on a 910B1 server; its FP16 figure (320 TFLOPS) names no SKU and is not used", "secondary"},
		{"AMD-MI250X", "AMD Instinct MI250X accelerator specifications (AMD's MI200 series data sheet and product page): peak FP64/FP32 vector 47.9 and matrix 95.7 TFLOPS, FP16/BF16 383 TFLOPS, INT8 383 TOPS, 128 GB HBM2e at 3.2768 TB/s, 560 W, and Infinity Fabric links up to 800 GB/s in all", "datasheet"},
		{"AMD-MI300X", "AMD Instinct MI300X accelerator data sheet", "datasheet"},
		{"ARCH-FP64", "FP64 derived from the architecture's FP64:FP32 ratio (1/64 on GA10x, AD10x and GB20x chips, 1/32 on TU102 and TU104), not printed in the datasheet", "secondary"},
		{"AWS-G5", "Amazon EC2 G5 instance pages: the G5's GPU is the NVIDIA A10G with 24 GB of memory (no per-GPU compute rates published)", "datasheet"},
		{"CMP", "Secondary comparison table (key CMP in the reference table; title not recorded there)", "secondary"},
		{"GDS", "Secondary source (key GDS in the reference table; title not recorded there)", "secondary"},
		{"GS", "Secondary comparison table (key GS in the reference table; title not recorded there)", "secondary"},
		{"H20-2", "Secondary sources for the H20 (China variant); no public vendor datasheet", "secondary"},
		{"H800-2", "Secondary sources for the H800 (China variant of the H100); no public vendor datasheet", "secondary"},
		{"HF-A30", "Secondary source for the A30 (key HF-A30 in the reference table; title not recorded there)", "secondary"},
		{"HFT", "Secondary source for the RTX 3090 (key HFT in the reference table; title not recorded there)", "secondary"},
		{"HW-910", "Huawei's Ascend 910 and Atlas 900 announcement (2019, as reported in the Chinese press): NPUs inside a server joined by HCCS, and each NPU joined to the CPU by PCIe 4.0; the 910B's PCIe generation is taken from it", "secondary"},
		{"HW-CANN-A2", "Huawei CANN documentation for the Atlas A2 series, with the Ascend 910B2 as its example: the generation table of the operator migration guide (gitcode.com/cann, ops-nn and ops-transformer, docs/zh/develop/cross_platform_migration_guide.md) gives 24 AI cores at 1.8 GHz, a cube rate of 353 TFLOPS in BF16 and FP16, 64 GB of memory at 1.6 TB/s; issue 6033 there (and 5487 in ops-transformer) works the cube rate out as 353.9 (24 cores × 4096 FP16 MACs a cycle × 2 × 1.8 GHz) and the table's 376 as cube plus vector units (22 TFLOPS); the example platform_config of the ATC tool's --aicore_num page, for A2 and A3 products, lists 24 cube and 48 vector cores. No FP32 or INT8 rate is given", "vendor-docs"},
		{"L20-2", "Secondary sources for the L20 (China variant); no public vendor datasheet", "secondary"},
		{"MLE", "Secondary accelerator comparison table (key MLE in the reference table; title not recorded there)", "secondary"},
		{"NV-4080S", "NVIDIA GeForce RTX 4080 SUPER product page and specifications: 10240 CUDA cores at 2.55 GHz boost (52.2 TFLOPS FP32), 16 GB GDDR6X at 23 Gbps on 256 bits (736 GB/s), 320 W, 836 AI TOPS (INT8 with sparsity); the tensor rates are derived from the AI TOPS with the Ada whitepaper's GeForce ratios, as no whitepaper covers the SUPER", "secondary"},
		{"NV-6000ADA", "NVIDIA RTX 6000 Ada Generation datasheet", "datasheet"},
		{"NV-A10", "NVIDIA A10 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A100", "NVIDIA A100 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A30", "NVIDIA A30 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A40", "NVIDIA A40 datasheet", "datasheet"},
		{"NV-A6000", "NVIDIA RTX A6000 datasheet", "datasheet"},
		{"NV-ADA", "NVIDIA Ada Lovelace GPU architecture whitepaper (GeForce RTX 4090)", "whitepaper"},
		{"NV-GA102", "NVIDIA Ampere GA102 GPU architecture whitepaper (GeForce RTX 3090)", "whitepaper"},
		{"NV-GH200", "NVIDIA GH200 Grace Hopper Superchip datasheet (GH200 with 96 GB HBM3 at 4 TB/s; module power 450 to 1000 W, CPU and memory included)", "datasheet"},
		{"NV-H100", "NVIDIA H100 Tensor Core GPU datasheet", "datasheet"},
		{"NV-H100NVL", "NVIDIA H100 NVL specifications: the H100 NVL column of NVIDIA's H100 datasheet and product page, and the H100 NVL product brief", "datasheet"},
		{"NV-H200", "NVIDIA H200 Tensor Core GPU datasheet", "datasheet"},
		{"NV-HGX", "NVIDIA HGX platform specifications (HGX B200)", "datasheet"},
		{"NV-L4", "NVIDIA L4 Tensor Core GPU datasheet", "datasheet"},
		{"NV-L40", "NVIDIA L40 GPU datasheet", "datasheet"},
		{"NV-L40S", "NVIDIA L40S GPU datasheet", "datasheet"},
		{"NV-P100", "NVIDIA Tesla P100 PCIe datasheet", "datasheet"},
		{"NV-QRTX6000", "NVIDIA Quadro RTX 6000 passive datasheet, as Leadtek reproduces it (maychudoanhnghiep.vn, leadtek-nvidia-quadro-rtx6000-passive): FP32 14.9 TFLOPS, FP16 29.9, tensor 119.4 TFLOPS (FP16 matrix multiply with FP16 or FP32 accumulate), INT8 238.9 TOPS, 24 GB GDDR6 at 624 GB/s, NVLink 100 GB/s, PCIe 3.0, 250 W. The actively cooled board is faster (FP32 16.3, tensor 130.5, 672 GB/s, 295 W: the same TU102 board as the Quadro RTX 8000 active datasheet, and NVIDIA's launch figures); NVIDIA's driver names both \"Quadro RTX 6000\" (the passive board is PCI device 1E78 10DE 13D9 in the supported-GPU table of NVIDIA's open-gpu-kernel-modules README), so nvidia-smi cannot tell them apart and the catalog keeps the slower", "datasheet"},
		{"NV-RTXBW", "NVIDIA RTX Blackwell GPU architecture whitepaper (GeForce RTX 5090)", "whitepaper"},
		{"NV-T4", "NVIDIA T4 Tensor Core GPU datasheet", "datasheet"},
		{"NV-V100", "NVIDIA Tesla V100 GPU datasheet", "datasheet"},
		{"SMI", "memory.total as nvidia-smi prints it, in public logs and test fixtures (see Card.MemoryNote)", "measured"},
		{"WL", "Wikipedia lists of NVIDIA and AMD graphics processing units", "secondary"},
		{"XF", "Secondary comparison table (key XF in the reference table; title not recorded there)", "secondary"},
	}
}

// SourceByKey returns the source with the given key, and false if there is none.
func SourceByKey(key string) (Source, bool) {
	for _, s := range Sources() {
		if s.Key == key {
			return s, true
		}
	}
	return Source{}, false
}
