#!/usr/bin/env python3
"""The PyTorch peer of nxv-bench (issue 6): the same measurements in PyTorch, on the same GPU, in the same run.

  torch_step.py --in DIR --json FILE        training steps of the models nxv-bench exported to DIR
  torch_step.py --in DIR --verify-export    read DIR back and recompute the first-step loss without torch
  torch_step.py --suite kernels --json FILE --elements 67108864,268435456 --gemm 1024,4096 --conv 32,64,64,56,3

DIR holds manifest.json and one safetensors file per setup (the initial parameters under nn::Sequential's names,
"input.images" and "input.labels"). Safetensors is parsed here (8-byte little-endian header length, JSON header,
raw bytes), so neither the `safetensors` package nor numpy is needed. Our conventions: conv kernels OIHW (as
PyTorch's), dense kernels [in, out] (PyTorch's Linear stores [out, in]: transposed on load), images NCHW or flat.

Training step, as nxv-bench's: softmax cross-entropy (mean), backward, SGD without momentum at the manifest's lr,
loss .item() every step; eager and torch.compile(mode="reduce-overhead") alternate after a warm-up; TF32 off.
Writes {"torch", "device", "series": [{"id", "samples_s", "first_loss"}]}. Exit status: 0, 77 when torch cannot be
imported, 76 when torch has no CUDA device, 1 on errors. Progress goes to stderr.
"""
import argparse
import json
import math
import struct
import sys
import time

EXIT_NO_TORCH = 77
EXIT_NO_CUDA = 76

# safetensors dtype -> (struct format, bytes per element, torch dtype name)
DTYPES = {"F32": ("f", 4, "float32"), "F64": ("d", 8, "float64"), "I64": ("q", 8, "int64"),
          "I32": ("i", 4, "int32"), "U8": ("B", 1, "uint8"), "BOOL": ("?", 1, "bool")}

# Each model's layers, by position in nn::Sequential (apps/train/models.cpp); a torch.nn.Sequential built in the same
# order has the same indices, so "conv_3.kernel" is module 3's weight.
SHAPES = {
    "mlp": {"dense_0.kernel": [784, 128], "dense_0.bias": [128], "dense_2.kernel": [128, 10], "dense_2.bias": [10]},
    "lenet": {"conv_0.kernel": [6, 1, 5, 5], "conv_0.bias": [6], "conv_3.kernel": [16, 6, 5, 5], "conv_3.bias": [16],
              "dense_7.kernel": [400, 120], "dense_7.bias": [120], "dense_9.kernel": [120, 84],
              "dense_9.bias": [84], "dense_11.kernel": [84, 10], "dense_11.bias": [10]},
    "cnn": {"conv_0.kernel": [8, 1, 3, 3], "conv_0.bias": [8], "conv_2.kernel": [16, 8, 3, 3], "conv_2.bias": [16],
            "dense_5.kernel": [784, 10], "dense_5.bias": [10]},
}


def log(*args):
    print("[torch_step]", *args, file=sys.stderr, flush=True)


def read_safetensors(path):
    """{name: (dtype, shape, bytes)} and the metadata of a safetensors file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", data[:8])
    if 8 + n > len(data):
        raise ValueError(f"{path}: header length {n} runs past the end of the file ({len(data)} bytes)")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        dtype, shape = entry["dtype"], entry["shape"]
        if dtype not in DTYPES:
            raise ValueError(f"{path}: tensor {name} has unknown dtype {dtype}")
        if end - begin != math.prod(shape) * DTYPES[dtype][1] or 8 + n + end > len(data):
            raise ValueError(f"{path}: tensor {name} ({dtype}{shape}) has {end - begin} bytes at {begin}")
        tensors[name] = (dtype, shape, data[8 + n + begin:8 + n + end])
    return tensors, metadata


def values(entry):
    dtype, shape, raw = entry
    fmt, size, _ = DTYPES[dtype]
    return list(struct.unpack("<%d%s" % (len(raw) // size, fmt), raw))


def read_manifest(directory):
    with open(f"{directory}/manifest.json") as f:
        return json.load(f)


def check_setup(setup, tensors):
    model, batch = setup["model"], setup["batch"]
    expected = dict(SHAPES[model])
    expected["input.images"] = [batch, 784] if model == "mlp" else [batch, 1, 28, 28]
    expected["input.labels"] = [batch]
    got = {name: shape for name, (_, shape, _) in tensors.items()}
    if got != expected:
        raise ValueError(f"{setup['id']}: tensors {got}, expected {expected}")
    if tensors["input.labels"][0] != "I64" or any(not 0 <= v < 10 for v in values(tensors["input.labels"])):
        raise ValueError(f"{setup['id']}: labels must be I64 in [0, 10)")


# ---- a plain-Python forward pass (for --verify-export: checks the layout conventions without torch) ----------
def py_conv(x, c, h, w, kernel, o, k, bias, stride, pad):
    """x: flat CHW list; kernel: flat OIHW list. Returns (flat OHW list, out h, out w)."""
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    out = []
    for oc in range(o):
        for i in range(oh):
            for j in range(ow):
                acc = bias[oc]
                for ic in range(c):
                    for di in range(k):
                        y = i * stride + di - pad
                        if 0 <= y < h:
                            for dj in range(k):
                                xx = j * stride + dj - pad
                                if 0 <= xx < w:
                                    acc += x[(ic * h + y) * w + xx] * kernel[((oc * c + ic) * k + di) * k + dj]
                out.append(acc)
    return out, oh, ow


def py_pool(x, c, h, w):
    oh, ow = h // 2, w // 2
    return [max(x[(ch * h + 2 * i + a) * w + 2 * j + b] for a in range(2) for b in range(2))
            for ch in range(c) for i in range(oh) for j in range(ow)], oh, ow


def py_dense(x, kernel, n_in, n_out, bias):  # kernel [in, out], row-major
    return [bias[o] + sum(x[i] * kernel[i * n_out + o] for i in range(n_in)) for o in range(n_out)]


def py_loss(model, t):
    p = {name: values(entry) for name, entry in t.items()}
    batch = t["input.labels"][1][0]
    relu = lambda v: [max(a, 0.0) for a in v]
    total = 0.0
    for n in range(batch):
        x = p["input.images"][n * 784:(n + 1) * 784]
        if model == "mlp":
            h = relu(py_dense(x, p["dense_0.kernel"], 784, 128, p["dense_0.bias"]))
            logits = py_dense(h, p["dense_2.kernel"], 128, 10, p["dense_2.bias"])
        elif model == "lenet":
            h, hh, ww = py_conv(x, 1, 28, 28, p["conv_0.kernel"], 6, 5, p["conv_0.bias"], 1, 2)
            h, hh, ww = py_pool(relu(h), 6, hh, ww)
            h, hh, ww = py_conv(h, 6, hh, ww, p["conv_3.kernel"], 16, 5, p["conv_3.bias"], 1, 0)
            h, hh, ww = py_pool(relu(h), 16, hh, ww)
            h = relu(py_dense(h, p["dense_7.kernel"], 400, 120, p["dense_7.bias"]))
            h = relu(py_dense(h, p["dense_9.kernel"], 120, 84, p["dense_9.bias"]))
            logits = py_dense(h, p["dense_11.kernel"], 84, 10, p["dense_11.bias"])
        else:
            h, hh, ww = py_conv(x, 1, 28, 28, p["conv_0.kernel"], 8, 3, p["conv_0.bias"], 2, 1)
            h, hh, ww = py_conv(relu(h), 8, hh, ww, p["conv_2.kernel"], 16, 3, p["conv_2.bias"], 2, 1)
            logits = py_dense(relu(h), p["dense_5.kernel"], 784, 10, p["dense_5.bias"])
        m = max(logits)
        total += m + math.log(sum(math.exp(v - m) for v in logits)) - logits[int(p["input.labels"][n])]
    return total / batch


def verify_export(directory):
    manifest = read_manifest(directory)
    checked = []
    for setup in manifest["setups"]:
        tensors, _ = read_safetensors(f"{directory}/{setup['file']}")
        check_setup(setup, tensors)
        if setup["batch"] <= 4:  # plain Python is slow: small batches only
            loss = py_loss(setup["model"], tensors)
            ours = setup["our_first_loss"]
            if abs(loss - ours) > 1e-4 * abs(ours):
                raise ValueError(f"{setup['id']}: first-step loss {loss} in plain Python, {ours} in nxv-bench")
            checked.append(f"{setup['id']} loss {loss:.6g}")
        else:
            checked.append(f"{setup['id']} shapes")
    print(f"{len(manifest['setups'])} setups read; " + ", ".join(checked))


# ---- with torch --------------------------------------------------------------------------------------------------
def import_torch(device):
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install
        print(f"no torch: {e}")
        sys.exit(EXIT_NO_TORCH)
    if device == "cuda" and not torch.cuda.is_available():
        print(f"torch {torch.__version__} sees no CUDA device")
        sys.exit(EXIT_NO_CUDA)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    # 16-bit matmuls accumulate in f32 throughout, as ours do.
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    return torch


def to_torch(torch, entry, device):
    dtype, shape, raw = entry
    t = torch.frombuffer(bytearray(raw), dtype=getattr(torch, DTYPES[dtype][2])).reshape(shape)
    return t.to(device)


def build_model(torch, model, tensors, device):
    nn = torch.nn
    if model == "mlp":
        layers = [nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10)]
    elif model == "lenet":
        layers = [nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                  nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                  nn.Linear(84, 10)]
    else:  # cnn: Nx's "same" padding for a 3x3 window is 1 on each side (strides not taken into account)
        layers = [nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, stride=2, padding=1),
                  nn.ReLU(), nn.Flatten(), nn.Linear(784, 10)]
    dtype = getattr(torch, DTYPES[tensors["input.images"][0]][2])
    seq = nn.Sequential(*layers).to(device=device, dtype=dtype)
    with torch.no_grad():
        for name in SHAPES[model]:
            layer, what = name.split(".")
            module = seq[int(layer.split("_")[1])]
            t = to_torch(torch, tensors[name], device)
            if what == "kernel":
                module.weight.copy_(t.t() if layer.startswith("dense") else t)
            else:
                module.bias.copy_(t)
    return seq


def make_loss(F, model):
    def loss_fn(x, y):
        return F.cross_entropy(model(x), y)
    return loss_fn


def synchronize(torch):
    if torch.cuda.is_initialized():
        torch.cuda.synchronize()


def timed(torch, fn):
    synchronize(torch)
    start = time.perf_counter()
    fn()
    synchronize(torch)
    return time.perf_counter() - start


def alternate(torch, arms, repeat, warmup_ms):
    """arms: [(name, fn)]; a warm-up of at least warmup_ms and two rounds over all arms (torch.compile's CUDA graphs
    are recorded on the second call), then `repeat` rounds A B A B ...; seconds per sample."""
    start, rounds = time.perf_counter(), 0
    while rounds < 2 or (time.perf_counter() - start) * 1e3 < warmup_ms:
        for _, fn in arms:
            fn()
        rounds += 1
    samples = {name: [] for name, _ in arms}
    for _ in range(repeat):
        for name, fn in arms:
            samples[name].append(timed(torch, fn))
    return samples


def train_steps(args):
    torch = import_torch(args.device)
    F = torch.nn.functional
    device = torch.device(args.device)
    manifest = read_manifest(args.input)
    series = []
    for setup in manifest["setups"]:
        tensors, _ = read_safetensors(f"{args.input}/{setup['file']}")
        check_setup(setup, tensors)
        x = to_torch(torch, tensors["input.images"], device)
        y = to_torch(torch, tensors["input.labels"], device)
        arms, first = [], {}
        for arm in args.arms.split(","):
            model = build_model(torch, setup["model"], tensors, device)
            opt = torch.optim.SGD(model.parameters(), lr=manifest["lr"], momentum=0.0, foreach=True)
            loss_fn = make_loss(F, model)
            compiled = arm == "compiled"
            if compiled:
                loss_fn = torch.compile(loss_fn, mode="reduce-overhead")

            def step(opt=opt, loss_fn=loss_fn, compiled=compiled):
                if compiled:  # a new iteration: CUDA-graph outputs of the previous one may be overwritten
                    torch.compiler.cudagraph_mark_step_begin()
                opt.zero_grad(set_to_none=True)
                loss = loss_fn(x, y)
                loss.backward()
                opt.step()
                return loss.item()

            log(f"{setup['id']} {arm}: first step" + (" (compiling)" if arm == "compiled" else ""))
            first[arm] = step()
            arms.append((arm, step))
        samples = alternate(torch, arms, args.repeat, args.warmup_ms)
        for arm, _ in arms:
            s = sorted(samples[arm])
            log(f"{setup['id']} {arm}: median {s[len(s) // 2] * 1e3:.3f} ms, first loss {first[arm]:.7g}")
            series.append({"id": f"{setup['id']}.{arm}", "samples_s": samples[arm], "first_loss": first[arm]})
    return torch, series


def kernels(args):
    torch = import_torch(args.device)
    torch.backends.cudnn.benchmark = True  # cuDNN's fastest algorithm for the conv layer
    F = torch.nn.functional
    device = torch.device(args.device)
    series = []
    for n in [int(v) for v in args.elements.split(",") if v]:
        log(f"add, sum and copy of {n} f32")
        a = torch.rand(n, device=device) * 2 - 1
        b = torch.rand(n, device=device) * 2 - 1
        s = alternate(torch, [("copy", lambda: a.clone()), ("add", lambda: a + b), ("sum", lambda: a.sum())],
                      args.repeat, args.warmup_ms)
        for name in ("copy", "add", "sum"):
            series.append({"id": f"{name}.{n}", "samples_s": s[name]})
        del a, b
    for n in [int(v) for v in args.gemm.split(",") if v]:
        log(f"matmul {n}^3, f32, f64, bf16 and f16")
        a32 = torch.rand(n, n, device=device) * 2 - 1
        b32 = torch.rand(n, n, device=device) * 2 - 1
        ops = {"f32": (a32, b32), "f64": (a32.double(), b32.double()),
               "bf16": (a32.bfloat16(), b32.bfloat16()), "f16": (a32.half(), b32.half())}
        s = alternate(torch, [(name, lambda a=a, b=b: torch.matmul(a, b)) for name, (a, b) in ops.items()],
                      args.repeat, args.warmup_ms)
        for name in ops:
            series.append({"id": f"gemm.{name}.{n}", "samples_s": s[name]})
        del a32, b32, ops
    if args.conv:
        batch, cin, cout, size, k = [int(v) for v in args.conv.split(",")]
        log(f"conv {batch}x{cin}x{size}x{size}, {cin}->{cout} {k}x{k}")
        x = (torch.rand(batch, cin, size, size, device=device) * 2 - 1).requires_grad_()
        w = (torch.rand(cout, cin, k, k, device=device) * 2 - 1).requires_grad_()

        def forward():
            with torch.no_grad():
                F.conv2d(x, w, padding=k // 2)

        def forward_backward():
            x.grad, w.grad = None, None
            F.conv2d(x, w, padding=k // 2).sum().backward()

        s = alternate(torch, [("forward", forward), ("forward_backward", forward_backward)], args.repeat,
                      args.warmup_ms)
        for name in ("forward", "forward_backward"):
            series.append({"id": f"conv.{name}", "samples_s": s[name]})
    return torch, series


def linalg(args):
    """--linalg "fn:batch:n,...": torch.linalg on the matrices nxv-bench times (symmetrised, n added on the
    diagonal); a case torch fails on (batched eigh has raised cuSOLVER internal errors) is logged and left out."""
    torch = import_torch(args.device)
    device = torch.device(args.device)
    functions = {
        "cholesky": lambda a, b: torch.linalg.cholesky(a),
        "solve": lambda a, b: torch.linalg.solve(a, b),
        "lu": lambda a, b: torch.linalg.lu(a),
        "qr": lambda a, b: torch.linalg.qr(a),
        "eigh": lambda a, b: torch.linalg.eigh(a),
        "svd": lambda a, b: torch.linalg.svd(a, full_matrices=False),
    }
    series = []
    for case in [c for c in args.linalg.split(",") if c]:
        fn, batch, n = case.split(":")
        batch, n = int(batch), int(n)
        if fn == "fft":  # torch.fft.fft (cuFFT) on batch rows of n complex64 numbers
            log(f"torch.fft.fft {batch} x {n} c64")
            z = torch.complex(torch.rand(batch, n, device=device), torch.rand(batch, n, device=device))
            s = alternate(torch, [(fn, lambda z=z: torch.fft.fft(z))], args.repeat, args.warmup_ms)
            series.append({"id": f"fft.{n}.b{batch}", "samples_s": s[fn]})
            del z
            continue
        log(f"torch.linalg.{fn} {batch} x {n}x{n} f32")
        x = torch.rand(batch, n, n, device=device) * 2 - 1
        a = (x + x.transpose(1, 2)) * 0.5 + n * torch.eye(n, device=device)
        b = torch.rand(batch, n, 1, device=device) * 2 - 1
        try:
            s = alternate(torch, [(fn, lambda a=a, b=b, f=functions[fn]: f(a, b))], args.repeat, args.warmup_ms)
        except Exception as e:  # noqa: BLE001 -- any failure of torch's is a result to report, not a crash
            log(f"torch.linalg.{fn} {batch} x {n}x{n} failed: {type(e).__name__}: {e}")
            continue
        series.append({"id": f"{fn}.{n}.b{batch}", "samples_s": s[fn]})
        del x, a, b
    return torch, series


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--in", dest="input", help="the directory nxv-bench exported (manifest.json)")
    p.add_argument("--json", help="where to write the results")
    p.add_argument("--suite", default="train", choices=["train", "kernels", "linalg"])
    p.add_argument("--verify-export", action="store_true", help="read --in back without torch and exit")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--warmup-ms", type=float, default=300)
    p.add_argument("--elements", default="67108864,268435456")
    p.add_argument("--gemm", default="1024,4096,8192")
    p.add_argument("--conv", default="32,64,64,56,3", help="batch,in,out,size,kernel")
    p.add_argument("--linalg", default="cholesky:100000:16", help="linalg cases fn:batch:n, comma-separated")
    p.add_argument("--arms", default="eager,compiled", help="training-step arms (eager needs no torch.compile)")
    p.add_argument("--device", default="cuda", help="cuda; cpu only to test this script where there is no GPU")
    args = p.parse_args()
    if args.verify_export:
        if not args.input:
            p.error("--verify-export needs --in")
        verify_export(args.input)
        return
    if not args.json or (args.suite == "train" and not args.input):
        p.error("--json is required, and --in for the training steps")
    run = {"train": train_steps, "kernels": kernels, "linalg": linalg}[args.suite]
    torch, series = run(args)
    with open(args.json, "w") as f:
        device = torch.cuda.get_device_name() if args.device == "cuda" else args.device
        json.dump({"torch": torch.__version__, "device": device, "series": series}, f)


if __name__ == "__main__":
    main()
