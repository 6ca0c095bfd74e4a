# relay.wasm's build, run by build.sh (which sets ROOT, BUILD, GC_SRC and OUT): bdwgc without
# threads, relay's C with -DRELAY_WASM (repl/main.c, the terminal's transports and the editor-line
# reader left out; repl/wasm.c in), linked into OUT/relay.js and OUT/relay.wasm.
CC = emcc
AR = emar
VERSION := $(shell sed -n "s/^ *version : '\(.*\)',/\1/p" $(ROOT)/meson.build)
OPT = -O2
# wasm SIMD: runtime/gemm.c's micro-kernel uses 128-bit vectors (every browser since 2021, node 16)
SIMD = -msimd128
GC_DEFS = -DNO_EXECUTE_PERMISSION -DALL_INTERIOR_POINTERS -DGC_ATOMIC_UNCOLLECTABLE -DNDEBUG
CFLAGS = $(OPT) $(SIMD) -std=c17 -D_GNU_SOURCE -DNDEBUG -DRELAY_WASM -DRELAY_VERSION='"$(VERSION)"' \
         -I$(ROOT) -I$(BUILD)/gc/include -MMD -MP \
         -Wall -Wextra -Werror $(if $(MAX_CALLS),-DRT_WASM_MAX_CALLS=$(MAX_CALLS))
# The C stack (emscripten's, in linear memory) and the heap's room: the collector's heap is capped
# by repl/wasm.c (relay --serve --sandbox's 512 MB).
STACK_BYTES = 8388608
LDFLAGS = $(OPT) -sMODULARIZE=1 -sEXPORT_NAME=createRelay -sENVIRONMENT=web,worker,node \
          -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sMAXIMUM_MEMORY=2147483648 \
          -sTOTAL_STACK=$(STACK_BYTES) \
          -sEXPORTED_FUNCTIONS=_relay_play_request,_malloc,_free \
          -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,stringToUTF8,lengthBytesUTF8,stackSave,stackRestore

# Every C file of ir/, typing/, runtime/ and repl/, but the native-only ones.
NATIVE_ONLY = repl/main.c repl/serve.c repl/lsp.c repl/interact.c
SRCS := $(filter-out $(NATIVE_ONLY),$(patsubst $(ROOT)/%,%,$(wildcard $(ROOT)/ir/*.c $(ROOT)/typing/*.c $(ROOT)/runtime/*.c $(ROOT)/repl/*.c)))
OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(SRCS)) $(BUILD)/obj/prelude_text.o

all: $(OUT)/relay.js

$(OUT)/relay.js: $(OBJS) $(BUILD)/gc/libgc.a
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/gc/libgc.a

$(BUILD)/obj/%.o: $(ROOT)/%.c $(BUILD)/gc/libgc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/prelude_text.c: $(ROOT)/prelude/prelude.rly $(ROOT)/prelude/embed.py
	@mkdir -p $(dir $@)
	python3 $(ROOT)/prelude/embed.py $< $@

$(BUILD)/obj/prelude_text.o: $(BUILD)/obj/prelude_text.c
	$(CC) $(CFLAGS) -c $< -o $@

# bdwgc in one translation unit (its extra/gc.c), headers where relay's includes look (<gc.h>,
# <gc/gc_mark.h>).
$(BUILD)/gc/libgc.a: $(GC_SRC)/extra/gc.c
	@mkdir -p $(BUILD)/gc/include/gc
	cp $(GC_SRC)/include/*.h $(BUILD)/gc/include/gc/
	cp $(GC_SRC)/include/*.h $(BUILD)/gc/include/
	$(CC) $(OPT) $(GC_DEFS) -Wno-macro-redefined -I$(GC_SRC)/include -c $< -o $(BUILD)/gc/gc.o
	rm -f $@ && $(AR) rcs $@ $(BUILD)/gc/gc.o

-include $(OBJS:.o=.d)
