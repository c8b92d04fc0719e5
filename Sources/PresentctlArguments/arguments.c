// presentctl's command-line arguments for the Swift runtime, without the runtime's search.
//
// Swift's runtime on Linux finds argv with a static constructor (CommandLine.cpp's
// ArgvGrabber) that reads /proc/self/maps line by line with fopen and sscanf to find the
// stack, at the start of every process, whether or not the program reads its arguments.
// For a command that lives under a millisecond that is a file opened and parsed and
// several system calls at every run. The runtime asks for argv through one function,
// _swift_stdlib_getUnsafeArgvArgc (called from the standard library's CommandLine); this
// file defines it, so that the static link takes no object from libswiftCore.a for it and
// the constructor is not linked at all. glibc calls every .init_array function of the
// executable with argc, argv and envp before main; the first entry here keeps the first two.
//
// Only the statically linked release binary is affected: libswiftCore.so keeps the function
// to itself, so a dynamically linked build (debug, tests) uses the runtime's own. If the
// runtime ever stops asking through this name, its constructor comes back (the link still
// succeeds, the cost returns); if another of its symbols pulls CommandLine.cpp's object in,
// the link fails on the duplicate definition instead of running two.

static int savedArgc;
static char **savedArgv;

static void saveArguments(int argc, char **argv, char **envp) {
    (void)envp;
    savedArgc = argc;
    savedArgv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const saveArgumentsAtStart)(int, char **, char **) = saveArguments;

// The runtime's declaration: SWIFT_CC(swift) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen).
__attribute__((swiftcall))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *noArguments[] = {0};
    if (!savedArgv) {
        *outArgLen = 0;
        return noArguments;
    }
    *outArgLen = savedArgc;
    return savedArgv;
}
