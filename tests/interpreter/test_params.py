"""Weights from TVM params files and .npz archives, bound by parameter name or metatable index.

The fixtures hold the arrays of ``fixtures/weights.relay`` (`weights`):
``weights.npz`` written by ``numpy.savez`` and ``weights_tvm027.params`` by
apache-tvm 0.27's ``tvm.runtime.save_param_dict_to_file`` (bools as DLPack's
bool), both by ``PYTHONPATH=. python -c "from tests.interpreter.test_params
import write_fixtures; write_fixtures()"``, and ``weights_tvm019.params`` by
TVM v0.19's ``relay.save_param_dict`` (bools as uint1), the format deployed Relay
models kept their weights in, by bench/tvm019/write_params.py.
"""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import InterpreterError, parameters, run
from relay_xdsl.interpreter.params import bind_params, constants_without_values, read_params

FIXTURES = Path(__file__).parent / "fixtures"


def weights() -> dict[str, np.ndarray]:
    """The arrays of ``fixtures/weights.relay``: three parameters and three constants."""
    rng = np.random.RandomState(3)
    return {
        "conv_weight": rng.uniform(-1, 1, (3, 2, 3, 3)).astype(np.float32),
        "conv_bias": np.array([0.5, -0.25, 0.125], np.float32),
        "mask": np.array([True, False, True]),
        "meta[relay.Constant][0]": np.array([7, 8, 9], np.float32),
        "meta[relay.Constant][1]": np.array([1.5, -2, 0.25], np.float16),
        "meta[relay.Constant][2]": np.array([1, -2, 3], np.int64),
    }


def write_fixtures() -> None:
    import tvm

    np.savez(FIXTURES / "weights.npz", **weights())
    tvm.runtime.save_param_dict_to_file(weights(), str(FIXTURES / "weights_tvm027.params"))


DATA = np.random.RandomState(0).uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)


def _expected(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """weights.relay in numpy."""
    padded = np.pad(DATA, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    conv = np.einsum("nchwij,ocij->nohw", windows, arrays["conv_weight"])
    relu = np.maximum(conv + arrays["conv_bias"][:, None, None], 0)
    pooled = relu.mean(axis=(2, 3))
    chosen = np.where(arrays["mask"], pooled, arrays["meta[relay.Constant][0]"])
    scaled = chosen * arrays["meta[relay.Constant][1]"].astype(np.float32)
    return scaled + arrays["meta[relay.Constant][2]"].astype(np.float32)


def _module():
    return parse_relay((FIXTURES / "weights.relay").read_text(), "weights.relay")


@pytest.mark.parametrize("name", ["weights_tvm019.params", "weights_tvm027.params", "weights.npz"])
def test_a_file_gives_the_text_its_weights(name: str):
    arrays = read_params(FIXTURES / name)
    expected = weights()
    assert sorted(arrays) == sorted(expected)
    for key, array in expected.items():
        assert arrays[key].dtype == array.dtype and arrays[key].shape == array.shape, key
        np.testing.assert_array_equal(arrays[key], array)
    module = _module()
    bind_params(module, arrays)
    module.verify()
    assert [name for name, _ in parameters(module)] == ["data"]
    assert constants_without_values(module) == {}
    (output,) = run(module, {"data": DATA})
    np.testing.assert_allclose(output, _expected(expected), rtol=1e-6, atol=1e-6)


def test_names_may_carry_the_percent_sign_and_bind_only_some_parameters():
    module = _module()
    bind_params(module, {"%conv_bias": weights()["conv_bias"]})
    assert [name for name, _ in parameters(module)] == ["data", "conv_weight", "mask"]
    assert sorted(constants_without_values(module)) == [0, 1, 2]


def test_a_constant_of_unknown_type_takes_its_arrays_and_the_types_are_solved_again():
    # TVM's frontends print an embedding table read only by take without a type.
    text = """#[version = "0.0.5"]
def @main(%ids: Tensor[(3), int64]) {
  %0 = take(meta[relay.Constant][0], %ids, axis=0);
  add(%0, meta[relay.Constant][1])
}
"""
    table = np.arange(12, dtype=np.float32).reshape(6, 2)
    bias = np.array([0.5, -1], np.float32)
    module = parse_relay(text, "embedding.relay")
    assert constants_without_values(module) == {}  # neither type is known yet
    bind_params(module, {"meta[relay.Constant][0]": table, "meta[relay.Constant][1]": bias})
    module.verify()
    ids = np.array([5, 0, 2])
    (output,) = run(module, {"ids": ids})
    np.testing.assert_array_equal(output, table[ids] + bias)


@pytest.mark.tvm
def test_the_reader_reads_what_tvm_writes_for_every_dtype():
    tvm = pytest.importorskip("tvm")
    arrays = {
        f"a_{dtype}": np.arange(-3, 3).astype(dtype).reshape(2, 3)
        for dtype in ("float16", "float32", "float64", "int8", "int16", "int32", "int64")
    } | {
        f"u_{dtype}": np.arange(6).astype(dtype)
        for dtype in ("uint8", "uint16", "uint32", "uint64", "bool")
    }
    arrays["scalar"] = np.array(2.5, np.float32)
    arrays["empty"] = np.zeros((0, 4), np.float32)
    path = Path(pytest.importorskip("tempfile").mkdtemp()) / "all.params"
    path.write_bytes(bytes(tvm.runtime.save_param_dict(arrays)))
    read = read_params(path)
    assert sorted(read) == sorted(arrays)
    for key, array in arrays.items():
        assert read[key].dtype == array.dtype and read[key].shape == array.shape, key
        np.testing.assert_array_equal(read[key], array)


def _params_file(*records: bytes, names: list[str] | None = None) -> bytes:
    """A save_param_dict file of raw NDArray `records`."""
    names = names if names is not None else [f"a{i}" for i in range(len(records))]
    head = struct.pack("<QQQ", 0xF7E58D4F05049CB7, 0, len(names))
    for name in names:
        head += struct.pack("<Q", len(name)) + name.encode()
    return head + struct.pack("<Q", len(records)) + b"".join(records)


def _ndarray(shape: tuple[int, ...], code: int = 2, bits: int = 32, data: bytes | None = None):
    size = int(np.prod(shape)) * ((bits + 7) // 8)
    header = struct.pack("<QQiiiBBH", 0xDD5E40F096B4A13F, 0, 1, 0, len(shape), code, bits, 1)
    header += struct.pack(f"<{len(shape)}q", *shape) + struct.pack("<q", size)
    return header + (bytes(size) if data is None else data)


def test_bools_read_as_tvm_0_19_writes_them(tmp_path: Path):
    """TVM 0.19 saves a bool array as uint1, a byte per element; TVM 0.27 as DLPack's bool."""
    path = tmp_path / "bools.params"
    path.write_bytes(_params_file(_ndarray((3,), code=1, bits=1, data=b"\x01\x00\x01")))
    (mask,) = read_params(path).values()
    assert mask.dtype == np.bool_ and mask.tolist() == [True, False, True]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"hello world", "is neither a TVM params file (save_param_dict) nor an .npz archive"),
        (b"", "is neither a TVM params file"),
        (_params_file(_ndarray((2,)))[:-3], "array a0: NDArray holds 5 data bytes, 8 declared"),
        (_params_file(_ndarray((2,))) + b"xx", "has 2 bytes after its last array"),
        (_params_file(_ndarray((2,)), names=["a", "b"]), "holds 2 names but 1 arrays"),
        (_params_file(_ndarray((1,)), _ndarray((1,)), names=["w", "w"]), "two arrays named w"),
        (_params_file(_ndarray((2,), code=4, bits=16)), "array a0: dtype bfloat16 has no numpy"),
        (_params_file(_ndarray((2,), code=9)), "array a0: expected a dtype code"),
        (
            _params_file(_ndarray((1 << 20, 1 << 20), data=b"")),
            "array a0: shape (1048576, 1048576) has 1099511627776 elements, more than the limit",
        ),
        (
            _params_file(_ndarray((100000, 100000), data=b"")),
            "array a0: NDArray holds 0 data bytes, 40000000000 declared (truncated)",
        ),
        (struct.pack("<QQQ", 0xF7E58D4F05049CB7, 0, 1 << 60), "declares 1152921504606846976 names"),
        (struct.pack("<QQ", 0xF7E58D4F05049CB7, 0), "ends before the number of names"),
    ],
)
def test_bad_params_files_are_errors_that_say_what_is_wrong(
    tmp_path: Path, content: bytes, message: str
):
    path = tmp_path / "bad.params"
    path.write_bytes(content)
    with pytest.raises(InterpreterError) as error:
        read_params(path)
    assert message in str(error.value) and str(path) in str(error.value)


def test_npz_headers_are_checked_before_their_data_is_read(tmp_path: Path):
    header = io.BytesIO()
    shape = (100000, 100000, 100000)
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f4", "fortran_order": False, "shape": shape}
    )
    path = tmp_path / "lying.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("w.npy", header.getvalue() + bytes(16))
    with pytest.raises(InterpreterError) as error:
        read_params(path)
    assert str(error.value) == (
        f"{path}: array w declares 4000000000000000 bytes ((100000, 100000, 100000) float32) "
        "but holds 16"
    )


def test_arrays_larger_than_the_machine_are_refused_before_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from relay_xdsl.interpreter import arrays

    monkeypatch.setattr(arrays, "machine_memory", lambda: 1000)
    path = tmp_path / "big.npz"
    np.savez(path, w=np.zeros(500, np.float32))
    with pytest.raises(
        InterpreterError,
        match=r"array w: 2e\+03 bytes \(Tensor\[\(500\), float32\]\) is more than the 9.31e-07 GiB this machine has",
    ):
        read_params(path)
    monkeypatch.setattr(arrays, "machine_memory", lambda: 250)  # each fits, not all 273 bytes
    with pytest.raises(InterpreterError, match=r"^the params: 273 bytes in all, more than"):
        bind_params(_module(), weights())


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (
            {
                "conv_wieght": np.zeros((3, 2, 3, 3), np.float32),
                "meta[relay.Constant][7]": np.zeros(3),
            },
            (
                "conv_wieght, meta[relay.Constant][7]: not a parameter of @main (its parameters: "
                "%data, %conv_weight, %conv_bias, %mask) nor a constant meta[relay.Constant][i] "
                "without a value (meta[relay.Constant][0] to [2])"
            ),
        ),
        (
            {"conv_weight": np.zeros((3, 2, 5, 5), np.float32)},
            "conv_weight is (3, 2, 5, 5) float32, the parameter %conv_weight is (3, 2, 3, 3) float32",
        ),
        (
            {"meta[relay.Constant][1]": np.zeros(3, np.float32)},
            "meta[relay.Constant][1] is (3,) float32, meta[relay.Constant][1] is (3,) float16",
        ),
    ],
)
def test_arrays_that_fit_nothing_are_errors_that_name_them(arrays, message: str):
    module = _module()
    with pytest.raises(InterpreterError) as error:
        bind_params(module, arrays)
    assert str(error.value) == message
    assert len(parameters(module)) == 4  # nothing was bound
