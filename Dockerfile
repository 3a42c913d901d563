# syntax=docker/dockerfile:1
FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --upgrade pip && pip install .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 coordbot && mkdir /data && chown coordbot /data
COPY --from=build /opt/venv /opt/venv
COPY alembic /app/alembic
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    COORDBOT_ALEMBIC_DIR=/app/alembic
WORKDIR /app
USER coordbot
VOLUME ["/data"]
CMD ["coordbot", "run"]
