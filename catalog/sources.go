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
		{"AMD-MI325X", "AMD Instinct MI325X accelerator data sheet: peak FP64 vector 81.7 and matrix 163.4, FP32 163.4, TF32 653.7, FP16/BF16 1,307.4 and FP8 2,614.9 TFLOPS dense, INT8 2,614.9 TOPS; 256 GB HBM3E at 6 TB/s; 1,000 W; Infinity Fabric, seven links of 128 GB/s; PCIe 5.0", "datasheet"},
		{"AMD-MI355X", "AMD Instinct MI355X accelerator data sheet and the CDNA 4 architecture whitepaper: peak FP64 vector and matrix 78.6, FP32 157.3, FP16/BF16 2,516.6, FP8 5,033.2 and MXFP4/MXFP6 10,066.3 TFLOPS dense, INT8 5,033.2 TOPS, no TF32 unit; 288 GB HBM3E at 8 TB/s; 1,400 W; Infinity Fabric, seven links of 153.6 GB/s; PCIe 5.0", "datasheet"},
		{"ARCH-FP64", "FP64 derived from the architecture's FP64:FP32 ratio (1/64 on GA10x, AD10x and GB20x chips, 1/32 on TU102, TU104 and GP102), not printed in the datasheet", "secondary"},
		{"AWS-G5", "Amazon EC2 G5 instance pages: the G5's GPU is the NVIDIA A10G with 24 GB of memory (no per-GPU compute rates published)", "datasheet"},
		{"CMP", "Secondary comparison table (key CMP in the reference table; title not recorded there)", "secondary"},
		{"CN-4090-48", "Secondary: the 48 GB RTX 4090 sold and rented in China, a 24 GB card's AD102 rebuilt on a clamshell board; public nvidia-smi logs print \"NVIDIA GeForce RTX 4090, 49140 MiB\" with a 450 W power limit. No NVIDIA datasheet exists; its other figures are the 24 GB card's", "secondary"},
		{"GDS", "Secondary source (key GDS in the reference table; title not recorded there)", "secondary"},
		{"GK-BW", "Secondary: Glenn K. Lockwood's processor notes on the B200 and B300 (glennklockwood.com/garden/processors), tabulating NVIDIA's per-GPU rates: GB200 at 1,200 W (FP64 45, FP32 90, BF16 2,500 dense TFLOPS) and HGX B300 FP64 1.25 TFLOPS", "secondary"},
		{"GS", "Secondary comparison table (key GS in the reference table; title not recorded there)", "secondary"},
		{"H20-2", "Secondary sources for the H20 (China variant); no public vendor datasheet", "secondary"},
		{"H800-2", "Secondary sources for the H800 (China variant of the H100); no public vendor datasheet", "secondary"},
		{"HF-A30", "Secondary source for the A30 (key HF-A30 in the reference table; title not recorded there)", "secondary"},
		{"HFT", "Secondary source for the RTX 3090 (key HFT in the reference table; title not recorded there)", "secondary"},
		{"HW-910", "Huawei's Ascend 910 and Atlas 900 announcement (2019, as reported in the Chinese press): NPUs inside a server joined by HCCS, and each NPU joined to the CPU by PCIe 4.0; the 910B's PCIe generation is taken from it", "secondary"},
		{"HW-CANN-A2", "Huawei CANN documentation for the Atlas A2 series, with the Ascend 910B2 as its example: the generation table of the operator migration guide (gitcode.com/cann, ops-nn and ops-transformer, docs/zh/develop/cross_platform_migration_guide.md) gives 24 AI cores at 1.8 GHz, a cube rate of 353 TFLOPS in BF16 and FP16, 64 GB of memory at 1.6 TB/s; issue 6033 there (and 5487 in ops-transformer) works the cube rate out as 353.9 (24 cores × 4096 FP16 MACs a cycle × 2 × 1.8 GHz) and the table's 376 as cube plus vector units (22 TFLOPS); the example platform_config of the ATC tool's --aicore_num page, for A2 and A3 products, lists 24 cube and 48 vector cores. No FP32 or INT8 rate is given", "vendor-docs"},
		{"HW-CM384", "Huawei's CloudMatrix384 paper (\"Serving Large Language Models on Huawei CloudMatrix384\", arXiv 2506.12708, 2025) and reports of it: the Ascend 910C is two compute dies in one package, about 752 TFLOPS dense FP16/BF16 in all, 128 GB of on-package memory at 3.2 TB/s (1.6 TB/s per die). No FP32, INT8 or power figure; the 800 W is twice the 910B2's 400 W, an estimate", "secondary"},
		{"L20-2", "Secondary sources for the L20 (China variant); no public vendor datasheet", "secondary"},
		{"MLE", "Secondary accelerator comparison table (key MLE in the reference table; title not recorded there)", "secondary"},
		{"NV-3080TI", "NVIDIA GeForce RTX 3080 Ti product page: 10,240 CUDA cores at 1.67 GHz boost (34.1 TFLOPS FP32), 12 GB GDDR6X at 19 Gbps on 384 bits (912 GB/s), 350 W; no whitepaper covers it, so the tensor rates take the GA102 whitepaper's GeForce ratios (FP16 and BF16 with FP32 accumulate at twice FP32, TF32 at FP32, INT8 at eight times)", "secondary"},
		{"NV-4080S", "NVIDIA GeForce RTX 4080 SUPER product page and specifications: 10240 CUDA cores at 2.55 GHz boost (52.2 TFLOPS FP32), 16 GB GDDR6X at 23 Gbps on 256 bits (736 GB/s), 320 W, 836 AI TOPS (INT8 with sparsity); the tensor rates are derived from the AI TOPS with the Ada whitepaper's GeForce ratios, as no whitepaper covers the SUPER", "secondary"},
		{"NV-5090D", "NVIDIA China's GeForce RTX 5090 D product page: 21,760 CUDA cores, 2,375 AI TOPS (FP4 with sparsity, against the RTX 5090's 3,352), 32 GB GDDR7 at 28 Gbps on 512 bits (1,792 GB/s), 575 W. FP32 is the 5090's, as the cores and clocks are; the tensor rates are the RTX Blackwell whitepaper's 5090 figures scaled by 2375/3352", "secondary"},
		{"NV-6000ADA", "NVIDIA RTX 6000 Ada Generation datasheet", "datasheet"},
		{"NV-A10", "NVIDIA A10 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A100", "NVIDIA A100 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A30", "NVIDIA A30 Tensor Core GPU datasheet", "datasheet"},
		{"NV-A40", "NVIDIA A40 datasheet", "datasheet"},
		{"NV-A4000", "NVIDIA RTX A4000 datasheet: FP32 19.2 TFLOPS, tensor 153.4 TFLOPS with sparsity (76.7 dense), 16 GB GDDR6 with ECC at 448 GB/s, PCIe 4.0, 140 W, no NVLink", "datasheet"},
		{"NV-A5000", "NVIDIA RTX A5000 datasheet: FP32 27.8 TFLOPS, tensor 222.2 TFLOPS with sparsity (111.1 dense), 24 GB GDDR6 with ECC at 768 GB/s, NVLink bridge 112.5 GB/s, PCIe 4.0, 230 W", "datasheet"},
		{"NV-A6000", "NVIDIA RTX A6000 datasheet", "datasheet"},
		{"NV-ADA", "NVIDIA Ada Lovelace GPU architecture whitepaper (GeForce RTX 4090)", "whitepaper"},
		{"NV-BWULTRA", "NVIDIA Technical Blog, \"Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory Era\" (2025): 160 SMs on two dies, 15 PFLOPS dense NVFP4 (the GB300's rate), 288 GB of HBM3E at 8 TB/s, fifth-generation NVLink at 1.8 TB/s per GPU, PCIe Gen 6", "whitepaper"},
		{"NV-GA102", "NVIDIA Ampere GA102 GPU architecture whitepaper (GeForce RTX 3090)", "whitepaper"},
		{"NV-GB200", "NVIDIA GB200 NVL72 specifications and the Blackwell architecture technical brief: 72 GPUs in one NVLink domain at 1.8 TB/s per GPU; per GPU at 1,200 W, dense FP4 10, FP8 and INT8 5, FP16/BF16 2.5 and TF32 1.25 PFLOPS (half the rack's sparse figures over 72 GPUs), FP32 90 and FP64 45 TFLOPS; 13.4 TB of HBM3e at 576 TB/s in all (186 GB and 8 TB/s per GPU)", "datasheet"},
		{"NV-GB300", "NVIDIA GB300 NVL72 specifications: 72 Blackwell Ultra GPUs in one NVLink domain at 1.8 TB/s per GPU; 1,080 PFLOPS dense FP4 (15 per GPU); FP8 720 and FP16/BF16 360 PFLOPS with sparsity (5 and 2.5 dense per GPU); about 20 TB of HBM3e at 576 TB/s (288 GB and 8 TB/s per GPU); 1,400 W per GPU", "datasheet"},
		{"NV-GH200", "NVIDIA GH200 Grace Hopper Superchip datasheet (GH200 with 96 GB HBM3 at 4 TB/s; module power 450 to 1000 W, CPU and memory included)", "datasheet"},
		{"NV-H100", "NVIDIA H100 Tensor Core GPU datasheet", "datasheet"},
		{"NV-H100NVL", "NVIDIA H100 NVL specifications: the H100 NVL column of NVIDIA's H100 datasheet and product page, and the H100 NVL product brief", "datasheet"},
		{"NV-H200", "NVIDIA H200 Tensor Core GPU datasheet", "datasheet"},
		{"NV-HGX", "NVIDIA HGX platform specifications, per 8-GPU board: HGX B200 (FP4 72 PFLOPS dense, FP8 72 and FP16/BF16 36 PFLOPS with sparsity, FP32 600 TFLOPS) and HGX B300 (FP4 108 PFLOPS dense; FP8 72, FP16/BF16 36, TF32 18 PFLOPS and INT8 2 POPS with sparsity; FP32 600 and FP64 10 TFLOPS; up to 2.3 TB of HBM3e; NVLink 5 at 1.8 TB/s per GPU), partly read in reproductions of NVIDIA's table", "datasheet"},
		{"NV-L4", "NVIDIA L4 Tensor Core GPU datasheet", "datasheet"},
		{"NV-L40", "NVIDIA L40 GPU datasheet", "datasheet"},
		{"NV-L40S", "NVIDIA L40S GPU datasheet", "datasheet"},
		{"NV-P100", "NVIDIA Tesla P100 PCIe datasheet", "datasheet"},
		{"NV-PRO6000", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet: 24,064 CUDA cores, FP32 125 TFLOPS, 4,000 AI TOPS (FP4 with sparsity), 96 GB GDDR7 with ECC at 1,792 GB/s on 512 bits, PCIe 5.0 x16, 600 W. The dense tensor rates are the AI TOPS halved for FP4 and halved again per doubling of width, at full rate with FP32 accumulation as on NVIDIA's professional cards (FP8 and INT8 1,000, FP16 and BF16 500, TF32 250); third-party tables derived from the clocks give 503.8 for FP16", "datasheet"},
		{"NV-QRTX6000", "NVIDIA Quadro RTX 6000 passive datasheet, as Leadtek reproduces it (maychudoanhnghiep.vn, leadtek-nvidia-quadro-rtx6000-passive): FP32 14.9 TFLOPS, FP16 29.9, tensor 119.4 TFLOPS (FP16 matrix multiply with FP16 or FP32 accumulate), INT8 238.9 TOPS, 24 GB GDDR6 at 624 GB/s, NVLink 100 GB/s, PCIe 3.0, 250 W. The actively cooled board is faster (FP32 16.3, tensor 130.5, 672 GB/s, 295 W: the same TU102 board as the Quadro RTX 8000 active datasheet, and NVIDIA's launch figures); NVIDIA's driver names both \"Quadro RTX 6000\" (the passive board is PCI device 1E78 10DE 13D9 in the supported-GPU table of NVIDIA's open-gpu-kernel-modules README), so nvidia-smi cannot tell them apart and the catalog keeps the slower", "datasheet"},
		{"NV-RTXBW", "NVIDIA RTX Blackwell GPU architecture whitepaper (GeForce RTX 5090)", "whitepaper"},
		{"NV-T4", "NVIDIA T4 Tensor Core GPU datasheet", "datasheet"},
		{"NV-TITANXP", "NVIDIA TITAN Xp product page: 3,840 CUDA cores at 1,582 MHz boost (12.15 TFLOPS FP32), 12 GB GDDR5X at 11.4 Gbps on 384 bits (547.7 GB/s), 250 W, no tensor cores. Its GP102 computes half precision at 1/64 of FP32, so frameworks run 16-bit matrix products in FP32 arithmetic; the catalog gives FP16 the FP32 rate and no BF16 rate", "datasheet"},
		{"NV-TU102", "NVIDIA Turing architecture whitepaper, GeForce RTX 2080 Ti reference board: FP32 13.4 TFLOPS, FP16 tensor with FP32 accumulate 53.8 TFLOPS (107.6 with FP16 accumulate), INT8 215.2 TOPS, 11 GB GDDR6 at 616 GB/s, NVLink bridge 100 GB/s, 250 W (the Founders Edition runs 6% faster: 14.2, 56.9, 227.7, 260 W; the catalog keeps the reference board)", "whitepaper"},
		{"NV-V100", "NVIDIA Tesla V100 GPU datasheet", "datasheet"},
		{"SMI", "memory.total as nvidia-smi prints it, in public logs and test fixtures (see Card.MemoryNote)", "measured"},
		{"VERDA-BW", "Secondary: Verda (formerly DataCrunch), \"NVIDIA GB300 NVL72: GPU Architecture & Performance\", per-GPU dense table: GB300 INT8 0.165 POPS, TF32 1.25 PFLOPS, FP32 80 TFLOPS; B300 INT8 0.15 POPS", "secondary"},
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
