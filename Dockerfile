# Arboretum in a container: the app as `make run` starts it, with Graphviz for the diagrams.
#   docker build -t arboretum .
#   docker run --rm -p 8501:8501 arboretum        # then open http://localhost:8501
# Several of these behind HAProxy: compose.yaml; on Kubernetes: deploy/k8s/.
FROM python:3.11-slim

# Debian's Graphviz draws the tree diagrams on the server (`dot`); nothing else is needed.
RUN apt-get update \
    && apt-get install --yes --no-install-recommends graphviz \
    && rm -rf /var/lib/apt/lists/*

# MALLOC_ARENA_MAX: two malloc arenas for all of Streamlit's session threads, instead of one
# each keeping its own freed memory (README, Deploying).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MALLOC_ARENA_MAX=2 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Streamlit keeps a little state in ~/.streamlit, so the user gets a home. UID 1000 is also
# the user Hugging Face Spaces runs a Docker Space as.
RUN useradd --create-home --uid 1000 arboretum
WORKDIR /app

# The dependencies first, from the project's metadata only: a code change keeps this layer.
# Runtime dependencies only, no [test] or [dev] extras.
COPY pyproject.toml ./
RUN python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' > /tmp/requirements.txt \
    && pip install --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The app itself; .dockerignore keeps tests, benchmarks and local files out. Streamlit puts
# serve.py's folder first on the import path, so `core` is imported from here. numba compiles
# the engine's loops now, into core/engine/__pycache__, so the first visitor does not wait
# for the compiler; the app's user owns that folder, since numba uses a cache folder only
# where it can write.
COPY . .
RUN python -m core.engine && chown -R arboretum:arboretum core/engine/__pycache__

USER arboretum
EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]

# The same command as `make run`, on Streamlit's default port; .streamlit/config.toml applies.
CMD ["streamlit", "run", "serve.py", "--server.headless", "true", "--server.port", "8501", "--browser.gatherUsageStats", "false"]
