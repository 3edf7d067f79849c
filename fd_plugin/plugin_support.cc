#include "plugin_support.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <cstdlib>
#include <iostream>
#include <time.h>

using namespace std;

namespace symt {
void fail(const string &message, utils::ExitCode code) {
    cout << flush;
    cerr << "symt: error: " << message << endl;
    exit(static_cast<int>(code));
}

string binary_folder() {
    char buffer[4096];
    ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
    if (length <= 0)
        return ".";
    string path(buffer, static_cast<size_t>(length));
    size_t slash = path.rfind('/');
    return slash == string::npos ? "." : path.substr(0, slash);
}

CreateHeuristicFunction load_heuristic_factory(
    const char *env, const char *name, int flags, const char *symbol, const string &what,
    const function<void(const string &reason)> &explain) {
    const char *override_path = getenv(env);
    string path = override_path && *override_path ? string(override_path)
                                                  : binary_folder() + "/" + name;
    void *handle = dlopen(path.c_str(), flags);
    if (!handle) {
        string reason = dlerror();
        if (explain)
            explain(reason);
        fail("cannot load " + path + " (" + what + "): " + reason +
             "; rebuild with `bash scripts/build_fd.sh`", utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    auto create = reinterpret_cast<CreateHeuristicFunction>(dlsym(handle, symbol));
    if (!create)
        fail(path + " has no " + symbol + ": not symt's library", utils::ExitCode::SEARCH_CRITICAL_ERROR);
    return create;
}

string states_per_second(double states, double cpu_seconds) {
    if (cpu_seconds < 0.01)
        return "too short for a rate";
    return to_string(static_cast<int64_t>(states / cpu_seconds)) + " states/s";
}

double process_cpu_seconds() {
    timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

bool is_out_of_memory(const string &message) {
    return message.find("can't allocate memory") != string::npos || message.find("bad_alloc") != string::npos;
}

bool cpu_has_bf16() {
    ifstream cpuinfo("/proc/cpuinfo");
    string line;
    while (getline(cpuinfo, line)) {
        if (line.compare(0, 5, "flags") != 0 && line.compare(0, 8, "Features") != 0)
            continue;
        istringstream words(line.substr(line.find(':') + 1));
        string word;
        while (words >> word)
            if (word == "avx512_bf16" || word == "amx_bf16" || word == "bf16")
                return true;
        return false;
    }
    return false;
}
}
