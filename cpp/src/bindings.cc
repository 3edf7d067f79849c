// pybind11 bindings of the state-space core: module symt._core.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "symt/local_net.hpp"
#include "symt/state_space.hpp"

namespace py = pybind11;

namespace {

template <typename T>
std::vector<T> to_vector(const py::array_t<T, py::array::c_style | py::array::forcecast>& a) {
  if (a.ndim() != 1) throw std::invalid_argument("expected a one-dimensional array");
  return std::vector<T>(a.data(), a.data() + a.size());
}

// A read-only numpy view of a vector owned by `owner` (which the array keeps alive).
template <typename T>
py::array_t<T> view(const std::vector<T>& v, py::handle owner) {
  py::array_t<T> a({static_cast<py::ssize_t>(v.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                   v.data(), owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

template <typename T>
py::array_t<T> copy(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

using I32 = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;
using I64 = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

std::unique_ptr<symt::StateSpace> expand(int32_t num_fluents, const I64& pre_pos_offsets,
                                         const I32& pre_pos, const I64& pre_neg_offsets,
                                         const I32& pre_neg, const I64& add_offsets,
                                         const I32& add, const I64& del_offsets, const I32& del,
                                         const I32& init, const I32& goal_pos,
                                         const I32& goal_neg, bool goal_possible,
                                         const I32& costs, int64_t max_states, int64_t max_transitions,
                                         int64_t max_memory_bytes) {
  symt::TaskArrays task;
  task.num_fluents = num_fluents;
  task.pre_pos_offsets = to_vector(pre_pos_offsets);
  task.pre_pos = to_vector(pre_pos);
  task.pre_neg_offsets = to_vector(pre_neg_offsets);
  task.pre_neg = to_vector(pre_neg);
  task.add_offsets = to_vector(add_offsets);
  task.add = to_vector(add);
  task.del_offsets = to_vector(del_offsets);
  task.del = to_vector(del);
  task.init = to_vector(init);
  task.goal_pos = to_vector(goal_pos);
  task.goal_neg = to_vector(goal_neg);
  task.goal_possible = goal_possible;
  task.costs = to_vector(costs);
  symt::Limits limits;
  limits.max_states = max_states;
  limits.max_transitions = max_transitions;
  limits.max_memory_bytes = max_memory_bytes;
  py::gil_scoped_release release;
  return std::make_unique<symt::StateSpace>(symt::StateSpace::expand(task, limits));
}

// A float32 C-contiguous copy of a NumPy array (or anything array-like).
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

// LocalNet.run from NumPy arrays (the tests' way in; the plugin fills a LocalPass itself).
py::tuple run_local_net(const symt::LocalNet& net, FloatArray atom_start, IntArray slots, FloatArray object_start,
                        IntArray context_row, IntArray links, IntArray atom_keep, IntArray object_keep,
                        FloatArray parent_atoms, FloatArray parent_objects) {
  const py::ssize_t n = atom_start.shape(0), o = object_start.shape(0), d = net.d(), layers = net.n_layers();
  if (atom_start.ndim() != 2 || atom_start.shape(1) != d || object_start.ndim() != 2 || object_start.shape(1) != d)
    throw std::invalid_argument("atom_start and object_start must be [n, d]");
  symt::LocalPass pass;
  pass.atoms = n;
  pass.objects = o;
  for (py::ssize_t a = 0; a < n; ++a) pass.atom_start.push_back(atom_start.data() + a * d);
  for (py::ssize_t i = 0; i < o; ++i) pass.object_start.push_back(object_start.data() + i * d);
  pass.slots.assign(slots.data(), slots.data() + slots.size());
  pass.context_row.assign(context_row.data(), context_row.data() + context_row.size());
  pass.links.assign(links.data(), links.data() + links.size());
  if (atom_keep.size() > 0 || object_keep.size() > 0) {
    if (parent_atoms.size() != layers * n * d || parent_objects.size() != layers * o * d)
      throw std::invalid_argument("parent_atoms and parent_objects must be [n_layers, n, d]");
    pass.atom_keep.assign(atom_keep.data(), atom_keep.data() + atom_keep.size());
    pass.object_keep.assign(object_keep.data(), object_keep.data() + object_keep.size());
    for (py::ssize_t a = 0; a < n; ++a) pass.atom_parent.emplace_back(parent_atoms.data() + a * d, n * d);
    for (py::ssize_t i = 0; i < o; ++i) pass.object_parent.emplace_back(parent_objects.data() + i * d, o * d);
  }
  // The pass writes only the tokens it does not keep from the parent after every layer; the
  // arrays returned hold every token (the others' states are the parent's), as the Python pass's.
  std::vector<int32_t> atom_column, object_column;
  const py::ssize_t atoms_written = net.columns(pass.atom_keep, static_cast<size_t>(n), atom_column),
                    objects_written = net.columns(pass.object_keep, static_cast<size_t>(o), object_column);
  std::vector<float> atom_out(static_cast<size_t>(layers * atoms_written * d)),
      object_out(static_cast<size_t>(layers * objects_written * d));
  py::array_t<float> terms({n, static_cast<py::ssize_t>(net.term_width())});
  net.run(pass, atom_out.data(), object_out.data(), terms.mutable_data());
  auto expand = [&](const std::vector<int32_t>& column, py::ssize_t columns, const std::vector<float>& out,
                    const float* parent, py::ssize_t tokens) {
    py::array_t<float> full({layers, tokens, d});
    for (py::ssize_t l = 0; l < layers; ++l)
      for (py::ssize_t i = 0; i < tokens; ++i) {
        const int32_t c = column[static_cast<size_t>(i)];
        const float* from = c >= 0 ? &out[static_cast<size_t>((l * columns + c) * d)] : parent + (l * tokens + i) * d;
        std::copy_n(from, d, full.mutable_data() + (l * tokens + i) * d);
      }
    return full;
  };
  return py::make_tuple(terms, expand(atom_column, atoms_written, atom_out, parent_atoms.data(), n),
                        expand(object_column, objects_written, object_out, parent_objects.data(), o));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of symt: explicit state-space expansion, h*, and sampling.";

  // LimitExceeded -> symt.errors.StateLimitError (imported lazily, with the GIL held).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const symt::LimitExceeded& e) {
      py::object cls = py::module_::import("symt.errors").attr("StateLimitError");
      PyErr_SetString(cls.ptr(), e.what());
    }
  });

  py::class_<symt::StateSpace>(m, "StateSpace")
      .def_property_readonly("num_states", &symt::StateSpace::num_states)
      .def_property_readonly("num_transitions", &symt::StateSpace::num_transitions)
      .def_property_readonly("num_fluents", &symt::StateSpace::num_fluents)
      .def_property_readonly("num_actions", &symt::StateSpace::num_actions)
      .def_property_readonly("words_per_state", &symt::StateSpace::words_per_state)
      .def_property_readonly("max_finite_hstar", &symt::StateSpace::max_finite_hstar)
      .def_property_readonly("max_finite_steps", &symt::StateSpace::max_finite_steps)
      .def_property_readonly("state_storage_bytes", &symt::StateSpace::state_storage_bytes)
      .def_property_readonly("memory_bytes", &symt::StateSpace::memory_bytes)
      .def_property_readonly("seconds", &symt::StateSpace::seconds)
      .def_property_readonly(
          "packed_states",
          [](py::object self) {
            const auto& sp = self.cast<const symt::StateSpace&>();
            const py::ssize_t w = sp.words_per_state();
            py::array_t<uint64_t> a({static_cast<py::ssize_t>(sp.num_states()), w},
                                    {static_cast<py::ssize_t>(w * 8), py::ssize_t{8}},
                                    sp.packed_states().data(), self);
            a.attr("setflags")(py::arg("write") = false);
            return a;
          },
          "uint64 [num_states, words_per_state], a read-only view")
      .def_property_readonly(
          "hstar_int",
          [](py::object self) {
            return view(self.cast<const symt::StateSpace&>().hstar(), self);
          },
          "int32 h* per state (a view); 2**31 - 1 for dead ends")
      .def_property_readonly(
          "steps",
          [](py::object self) {
            return view(self.cast<const symt::StateSpace&>().steps(), self);
          },
          "int32 fewest steps among the cheapest plans per state (a view; h* without action "
          "costs); 2**31 - 1 for dead ends")
      .def_property_readonly(
          "action_costs",
          [](py::object self) {
            return view(self.cast<const symt::StateSpace&>().action_costs(), self);
          },
          "int32 cost per action (a view); empty when every action costs 1")
      .def_property_readonly(
          "hstar",
          [](const symt::StateSpace& sp) {
            const auto& h = sp.hstar();
            py::array_t<double> a(static_cast<py::ssize_t>(h.size()));
            double* out = a.mutable_data();
            for (std::size_t i = 0; i < h.size(); ++i) {
              out[i] = h[i] == symt::kHstarInfinity ? std::numeric_limits<double>::infinity()
                                                    : static_cast<double>(h[i]);
            }
            return a;
          },
          "float64 h* per state (a new array); inf for dead ends")
      .def_property_readonly(
          "goal_states",
          [](py::object self) {
            return view(self.cast<const symt::StateSpace&>().goal_states(), self);
          })
      .def_property_readonly("transition_offsets",
                             [](py::object self) {
                               return view(
                                   self.cast<const symt::StateSpace&>().transition_offsets(),
                                   self);
                             })
      .def_property_readonly("transition_actions",
                             [](py::object self) {
                               return view(
                                   self.cast<const symt::StateSpace&>().transition_actions(),
                                   self);
                             })
      .def_property_readonly("transition_targets",
                             [](py::object self) {
                               return view(
                                   self.cast<const symt::StateSpace&>().transition_targets(),
                                   self);
                             })
      .def_property_readonly("layer_offsets",
                             [](py::object self) {
                               return view(self.cast<const symt::StateSpace&>().layer_offsets(),
                                           self);
                             })
      .def_property_readonly("layer_states",
                             [](py::object self) {
                               return view(self.cast<const symt::StateSpace&>().layer_states(),
                                           self);
                             })
      .def("state_facts",
           [](const symt::StateSpace& sp, int64_t s) { return copy(sp.state_facts(s)); })
      .def("successors",
           [](const symt::StateSpace& sp, int64_t s) {
             sp.check_state(s);
             const auto begin = sp.transition_offsets()[static_cast<std::size_t>(s)];
             const auto end = sp.transition_offsets()[static_cast<std::size_t>(s) + 1];
             const auto n = static_cast<py::ssize_t>(end - begin);
             py::array_t<int32_t> actions(n);
             py::array_t<int32_t> targets(n);
             for (py::ssize_t i = 0; i < n; ++i) {
               actions.mutable_data()[i] =
                   sp.transition_actions()[static_cast<std::size_t>(begin + i)];
               targets.mutable_data()[i] =
                   sp.transition_targets()[static_cast<std::size_t>(begin + i)];
             }
             return py::make_tuple(actions, targets);
           })
      .def("log_num_optimal_plans", &symt::StateSpace::log_num_optimal_plans);

  py::class_<symt::Sampler>(m, "Sampler")
      .def(py::init<const symt::StateSpace&, uint64_t>(), py::arg("space"), py::arg("seed"),
           py::keep_alive<1, 2>())
      .def("sample_state", &symt::Sampler::sample_state)
      .def("sample_states",
           [](symt::Sampler& sampler, int64_t n) {
             if (n < 0) throw std::invalid_argument("n must be non-negative");
             py::array_t<int32_t> out(static_cast<py::ssize_t>(n));
             int32_t* data = out.mutable_data();
             for (int64_t i = 0; i < n; ++i) data[i] = sampler.sample_state();
             return out;
           })
      .def("random_optimal_plan", &symt::Sampler::random_optimal_plan)
      .def("next_u64", &symt::Sampler::next_u64)
      .def("bounded", &symt::Sampler::bounded);

  m.def("expand", &expand, py::arg("num_fluents"), py::arg("pre_pos_offsets"),
        py::arg("pre_pos"), py::arg("pre_neg_offsets"), py::arg("pre_neg"),
        py::arg("add_offsets"), py::arg("add"), py::arg("del_offsets"), py::arg("del_"),
        py::arg("init"), py::arg("goal_pos"), py::arg("goal_neg"), py::arg("goal_possible"),
        py::arg("costs"), py::arg("max_states"), py::arg("max_transitions"), py::arg("max_memory_bytes"),
        "Expands a grounded task given as flat CSR arrays; returns a StateSpace.");

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  py::class_<symt::LocalNet>(m, "LocalNet",
                             "A local objects model's state pass in C++ (the plugin's; symt/local_net.hpp).")
      .def(py::init([](const py::dict& weights) {
             std::vector<FloatArray> held;  // alive until the constructor has copied them
             std::map<std::string, symt::WeightView> views;
             for (auto item : weights) {
               held.push_back(FloatArray::ensure(item.second));
               const FloatArray& array = held.back();
               views[item.first.cast<std::string>()] = {std::vector<int64_t>(array.shape(), array.shape() + array.ndim()),
                                                        array.data()};
             }
             return symt::LocalNet(views);
           }),
           py::arg("weights"))
      .def(
          "set_context",
          [](symt::LocalNet& net, FloatArray context) {
            if (context.ndim() < 3 || context.shape(0) != net.n_layers() || context.shape(1) != 2 ||
                context.size() % (2 * net.n_layers() * net.d()) != 0)
              throw std::invalid_argument("the context must be [n_layers, 2, rows, ...d]");
            net.set_context(context.data(), context.shape(2));
          },
          py::arg("context"))
      .def("run", &run_local_net, py::arg("atom_start"), py::arg("slots"), py::arg("object_start"),
           py::arg("context_row"), py::arg("links"), py::arg("atom_keep"), py::arg("object_keep"),
           py::arg("parent_atoms"), py::arg("parent_objects"),
           "(terms [n, t], atom_layers [L, n, d], object_layers [L, o, d]) of one state's pass.")
      .def_property_readonly("last_tokens_computed", &symt::LocalNet::last_tokens_computed);
}
