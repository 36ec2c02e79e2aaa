import Foundation
import Hummingbird

/// The OpenAPI 3.1 document of the API, written by hand and kept here, in the binary (no resource file
/// to install beside it); served at `/api/openapi.json`. `HTTPServiceTests.OpenAPITests` holds every
/// route against it both ways, validates it (openapi-spec-validator) and runs schemathesis from it.
public enum OpenAPIDocument {
    public static let data = Data(json.utf8)

    static func response() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "onair",
    "version": "1.0.0",
    "description": "The HTTP API of `onair daemon --http`: stations, jobs, schedule, recordings, programme guides, podcasts, playlists, likes and hidden items, status and live events. Errors are `{\"error\": \"…\"}` with 400 (malformed request), 401 (no login: once `onair web password` or `onair web token create` has set a credential, send `Authorization: Bearer TOKEN` or the login cookie of `/login`), 403 (a request with the login cookie that changes something without the session's `X-CSRF-Token`), 404 (no such item), 405 (a method the path does not take), 409 (conflict), 422 (well-formed but invalid: an unknown station, a time that does not parse)."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "paths": {
    "/api/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "The OpenAPI document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        },
        "security": [
          {}
        ]
      }
    },
    "/api/v1/stations": {
      "get": {
        "operationId": "listStations",
        "summary": "The catalogue, or the stations matching a search.",
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "schema": {
              "type": "string"
            },
            "description": "Words matched against name, id, tags, country and language."
          }
        ],
        "responses": {
          "200": {
            "description": "Stations, best match first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StationList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "addStation",
        "summary": "Add a station to the user's catalogue.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Station"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "400": {
            "description": "Not a station object.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "description": "That id is taken.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The station does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/stations/{id}": {
      "get": {
        "operationId": "getStation",
        "summary": "One station.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/directory": {
      "get": {
        "operationId": "searchDirectory",
        "summary": "Search the radio-browser.info directory by name.",
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Matching stations, most listened to first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DirectoryList"
                }
              }
            }
          },
          "400": {
            "description": "No query, or a bad limit.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "502": {
            "description": "The directory could not be reached.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "No directory server is configured.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/directory/add": {
      "post": {
        "operationId": "addDirectoryStation",
        "summary": "Add a directory result to the user's catalogue.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DirectoryStation"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The station as added (its id made from its name).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "400": {
            "description": "Not a directory station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The station does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/jobs": {
      "get": {
        "operationId": "listJobs",
        "summary": "Runtime jobs with their live state.",
        "responses": {
          "200": {
            "description": "The jobs.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JobList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "startJob",
        "summary": "Start a relay or a recording.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/JobRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "400": {
            "description": "Not a job request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "An unknown station, a sink that cannot open, a station that cannot be resolved.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/jobs/{id}": {
      "get": {
        "operationId": "getJob",
        "summary": "One job.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "stopJob",
        "summary": "Stop a job; a recording is finalised first.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The job as it ended.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/schedule/rules": {
      "get": {
        "operationId": "listRules",
        "summary": "Rules with their next episode.",
        "responses": {
          "200": {
            "description": "The rules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RuleList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "addRule",
        "summary": "Add a rule; the daemon picks it up at once.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RuleRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "400": {
            "description": "Not a rule request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The rule does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}": {
      "get": {
        "operationId": "getRule",
        "summary": "One rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "deleteRule",
        "summary": "Delete a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}/pause": {
      "post": {
        "operationId": "pauseRule",
        "summary": "Pause a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}/resume": {
      "post": {
        "operationId": "resumeRule",
        "summary": "Resume a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/schedule/next": {
      "get": {
        "operationId": "nextEpisodes",
        "summary": "The next episodes of the active rules.",
        "parameters": [
          {
            "name": "count",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Upcoming episodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UpcomingList"
                }
              }
            }
          },
          "400": {
            "description": "Bad count.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/schedule/episodes": {
      "get": {
        "operationId": "listEpisodes",
        "summary": "Recent episodes with their state and reason.",
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          },
          {
            "name": "rule",
            "in": "query",
            "schema": {
              "type": "integer",
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Episodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EpisodeList"
                }
              }
            }
          },
          "400": {
            "description": "Bad limit or rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/recordings": {
      "get": {
        "operationId": "listRecordings",
        "summary": "Finished recordings, newest first, a page at a time.",
        "parameters": [
          {
            "name": "station",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "programme",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          },
          {
            "name": "offset",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Recordings (limit: 100 unless asked).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingList"
                }
              }
            }
          },
          "400": {
            "description": "Bad limit or offset.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/recordings/{id}": {
      "get": {
        "operationId": "getRecording",
        "summary": "A recording with its titles, gaps and chapters.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingDetail"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "deleteRecording",
        "summary": "Delete a recording's file and its index entry.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "What was deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The file could not be removed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/recordings/{id}/keep": {
      "post": {
        "operationId": "keepRecording",
        "summary": "Mark a recording kept: retention (keep, keepDays, --min-free) never deletes it.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording, kept.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "unkeepRecording",
        "summary": "Let retention delete a kept recording again.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording, no longer kept.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/recordings/{id}/audio": {
      "get": {
        "operationId": "recordingAudio",
        "summary": "The recording's audio; answers Range (206), If-None-Match and If-Modified-Since (304).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          },
          {
            "name": "Range",
            "in": "header",
            "schema": {
              "type": "string",
              "examples": [
                "bytes=0-99"
              ]
            }
          },
          {
            "name": "token",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The secret token of this address, as the podcast feeds give it (podcast apps cannot log in)."
          }
        ],
        "responses": {
          "200": {
            "description": "The whole file.",
            "content": {
              "audio/*": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "audio/*"
                }
              }
            }
          },
          "206": {
            "description": "The range asked for.",
            "content": {
              "audio/*": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "audio/*"
                }
              }
            }
          },
          "304": {
            "description": "Not modified."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such recording, or its file is missing.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "416": {
            "description": "The range lies beyond the end."
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/recordings/{id}/chapters.json": {
      "get": {
        "operationId": "recordingChapters",
        "summary": "Podcasting 2.0 JSON chapters.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          },
          {
            "name": "token",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The secret token of this address, as the podcast feeds give it (podcast apps cannot log in)."
          }
        ],
        "responses": {
          "200": {
            "description": "Chapters.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastChapters"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/guide": {
      "get": {
        "operationId": "showGuide",
        "summary": "What is on a day: one station's broadcasts (on its clock, in its language), or every channel's.",
        "parameters": [
          {
            "name": "station",
            "in": "query",
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "A catalogue station id or stream URL; without it, every channel of the guide (on the daemon's clock)."
          },
          {
            "name": "date",
            "in": "query",
            "schema": {
              "type": "string",
              "examples": [
                "today",
                "tomorrow",
                "2026-11-24"
              ]
            },
            "description": "today (default), tomorrow, yesterday or YYYY-MM-DD."
          }
        ],
        "responses": {
          "200": {
            "description": "The day's broadcasts, in order of start per channel.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuideDay"
                }
              }
            }
          },
          "400": {
            "description": "A date that is not today, tomorrow, yesterday or YYYY-MM-DD.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such station, or no imported guide lists it.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/guide/channels": {
      "get": {
        "operationId": "listGuideChannels",
        "summary": "The guide's channels and the stations they are (mapped by hand, or by a station's guideID).",
        "responses": {
          "200": {
            "description": "Channels, by id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuideChannelList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/guide/channels/{channel}": {
      "put": {
        "operationId": "mapGuideChannel",
        "summary": "Say which station a guide channel is.",
        "parameters": [
          {
            "name": "channel",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "The channel's id in the guide."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ChannelMapping"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The channel, mapped.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuideChannel"
                }
              }
            }
          },
          "400": {
            "description": "Not a mapping object.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "The guide has no such channel.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "No such station in the catalogue, and not a stream URL.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/guide/import": {
      "post": {
        "operationId": "importGuide",
        "summary": "Import an XMLTV guide from a URL, which the daemon then refreshes with conditional requests.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/GuideImportRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Imported, or not changed since the last import (the server answered 304).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuideImportReply"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with a url.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not an http(s) URL, or it did not give an XMLTV guide (no answer, an error status, not XMLTV).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/guide/sources": {
      "get": {
        "operationId": "listGuideSources",
        "summary": "The guide URLs the daemon refreshes, with when each was last asked for and last changed.",
        "responses": {
          "200": {
            "description": "Guide sources.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuideSourceList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/podcasts": {
      "get": {
        "operationId": "listPodcasts",
        "summary": "The podcasts followed.",
        "responses": {
          "200": {
            "description": "Podcasts, in the order they were followed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "followPodcast",
        "summary": "Follow a podcast by its feed's URL (RSS 2.0 with iTunes and Podcasting 2.0 tags, or Atom).",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PodcastRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Followed already: refreshed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastRefresh"
                }
              }
            }
          },
          "201": {
            "description": "Followed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastRefresh"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with a url.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not an http(s) URL, or it did not give a feed (no answer, an error status, neither RSS nor Atom).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/podcasts/refresh": {
      "post": {
        "operationId": "refreshPodcasts",
        "summary": "Ask for every feed again, with the validators of the copy read last (an unchanged feed is a 304 and is not read).",
        "responses": {
          "200": {
            "description": "Each podcast's outcome; a feed that could not be fetched says why in error, and the others go on.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastRefreshList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/podcasts/{id}": {
      "get": {
        "operationId": "getPodcast",
        "summary": "One podcast.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Podcast"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "unfollowPodcast",
        "summary": "Stop following a podcast: it, its episodes and their downloads go.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The podcast unfollowed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Podcast"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/podcasts/{id}/refresh": {
      "post": {
        "operationId": "refreshPodcast",
        "summary": "Ask for one feed again (conditionally).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Refreshed, or not changed (304).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastRefresh"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "502": {
            "description": "The feed could not be fetched or read.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/podcasts/{id}/programme": {
      "put": {
        "operationId": "attachPodcast",
        "summary": "Attach a podcast to the catalogue (or recorded) programme it publishes: the programme's recordings and the podcast's episodes are then one list, by date.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ProgrammeAttachment"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The podcast, attached.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Podcast"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with a programme.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "No such programme in the catalogue or the recordings.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "operationId": "detachPodcast",
        "summary": "Detach a podcast from its programme.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The podcast, detached.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Podcast"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/podcasts/{id}/episodes": {
      "get": {
        "operationId": "listPodcastEpisodes",
        "summary": "A podcast's episodes, oldest first, with where each was left and whether it was heard.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Episodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastEpisodeList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such podcast.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists": {
      "get": {
        "operationId": "listPlaylists",
        "summary": "The playlists, with the system playlist Liked first.",
        "responses": {
          "200": {
            "description": "Playlists.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "createPlaylist",
        "summary": "Create a playlist: no name or an empty one is \"New playlist\"; a name taken (or \"Liked\") gets a number, \"Jazz (2)\".",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PlaylistName"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistSummary"
                }
              }
            }
          },
          "400": {
            "description": "Not a playlist object.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists/liked": {
      "get": {
        "operationId": "showLikedPlaylist",
        "summary": "The system playlist Liked: the items liked, in the order they were liked.",
        "responses": {
          "200": {
            "description": "The playlist and its items.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistDetail"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists/search": {
      "get": {
        "operationId": "searchPlaylists",
        "summary": "Playlists whose name, and items whose title or reference, contain the text (case and accents ignored).",
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Playlists and items found.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistSearch"
                }
              }
            }
          },
          "400": {
            "description": "No text to look for.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists/{id}": {
      "get": {
        "operationId": "showPlaylist",
        "summary": "A playlist and its items in order.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          }
        ],
        "responses": {
          "200": {
            "description": "The playlist and its items.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistDetail"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No such playlist.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "patch": {
        "operationId": "renamePlaylist",
        "summary": "Rename a playlist, by the rule names are given at creation.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PlaylistName"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Renamed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistSummary"
                }
              }
            }
          },
          "400": {
            "description": "Not a playlist object.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such playlist.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "delete": {
        "operationId": "deletePlaylist",
        "summary": "Delete a playlist (its recordings, episodes and stations stay).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          }
        ],
        "responses": {
          "200": {
            "description": "The playlist deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistSummary"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such playlist.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists/{id}/items": {
      "post": {
        "operationId": "addPlaylistItems",
        "summary": "Add items at the end, in the order given: a programme as its recorded episodes (and its podcast's), a podcast as its episodes, oldest first; hidden items are left out.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PlaylistItems"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "What was added, and the playlist now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ItemsAdded"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with items.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such playlist.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "An item that is not KIND:REF, that names a file, or that names nothing.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/playlists/{id}/items/{position}": {
      "delete": {
        "operationId": "removePlaylistItem",
        "summary": "Remove the item at a position (1 is the first).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          },
          {
            "name": "position",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The item's position, 1 first."
          }
        ],
        "responses": {
          "200": {
            "description": "The playlist now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistDetail"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such playlist or position.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/playlists/{id}/items/{position}/move": {
      "post": {
        "operationId": "movePlaylistItem",
        "summary": "Move the item at a position to another.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The playlist's id (the system playlist of liked items is /api/v1/playlists/liked)."
          },
          {
            "name": "position",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            },
            "description": "The item's position now, 1 first."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ItemMove"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The playlist now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlaylistDetail"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with to.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "No such playlist or position.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "to is not a position of the playlist.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/likes": {
      "post": {
        "operationId": "like",
        "summary": "Like an item: it joins the system playlist Liked.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ItemMark"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Liked (changed is false if it was already).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MarkReply"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with an item.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not KIND:REF, a file, or nothing called that.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "operationId": "unlike",
        "summary": "Unlike an item.",
        "parameters": [
          {
            "name": "item",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "The item as KIND:REF, e.g. recording:12 (an item gone since, a deleted recording, is taken back too)."
          }
        ],
        "responses": {
          "200": {
            "description": "Not liked (changed is false if it was not).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MarkReply"
                }
              }
            }
          },
          "400": {
            "description": "No item.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not KIND:REF.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/hidden": {
      "get": {
        "operationId": "listHidden",
        "summary": "The hidden items.",
        "responses": {
          "200": {
            "description": "Hidden items.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HiddenList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      },
      "post": {
        "operationId": "hide",
        "summary": "Hide an item: it leaves every playlist, and programmes, podcasts and playlists are added and played without it.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ItemMark"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Hidden (changed is false if it was already).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MarkReply"
                }
              }
            }
          },
          "400": {
            "description": "Not an object with an item.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not KIND:REF, a file, or nothing called that.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "operationId": "unhide",
        "summary": "Show a hidden item again (it does not go back into the playlists it left).",
        "parameters": [
          {
            "name": "item",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "The item as KIND:REF, e.g. recording:12 (an item gone since, a deleted recording, is taken back too)."
          }
        ],
        "responses": {
          "200": {
            "description": "Shown (changed is false if it was not hidden).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MarkReply"
                }
              }
            }
          },
          "400": {
            "description": "No item.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "Not KIND:REF.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/status": {
      "get": {
        "operationId": "status",
        "summary": "Active episodes and jobs, next episodes, recent failures, disk free.",
        "responses": {
          "200": {
            "description": "Status.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Status"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    },
    "/api/v1/events": {
      "get": {
        "operationId": "events",
        "summary": "Live events as Server-Sent Events: each `data:` line one JSON object with type (title, gap, reconnect, episode-start, episode-end, job-start, job-stop, recording-deleted), station, title, message, episode, job, at.",
        "responses": {
          "200": {
            "description": "An endless event stream.",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "string",
            "description": "What went wrong, in a sentence a person can act on."
          }
        }
      },
      "Station": {
        "type": "object",
        "required": [
          "id",
          "name",
          "country",
          "language",
          "timeZone",
          "streams"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9-]*$"
          },
          "name": {
            "type": "string",
            "minLength": 1
          },
          "homepage": {
            "type": [
              "string",
              "null"
            ]
          },
          "logo": {
            "type": [
              "string",
              "null"
            ]
          },
          "country": {
            "type": "string",
            "pattern": "^[A-Z]{2}$"
          },
          "language": {
            "type": "string",
            "pattern": "^[a-z]{2,3}$"
          },
          "timeZone": {
            "type": "string",
            "examples": [
              "Europe/London"
            ]
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "charset": {
            "type": [
              "string",
              "null"
            ]
          },
          "guideID": {
            "type": [
              "string",
              "null"
            ]
          },
          "streams": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": [
                "url",
                "kind"
              ],
              "properties": {
                "url": {
                  "type": "string",
                  "format": "uri"
                },
                "kind": {
                  "type": "string",
                  "enum": [
                    "icy",
                    "hls",
                    "dash"
                  ]
                },
                "codec": {
                  "type": "string"
                },
                "bitrate": {
                  "type": "integer"
                }
              },
              "additionalProperties": true
            }
          },
          "programmes": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": true
            }
          },
          "preRoll": {
            "type": [
              "number",
              "null"
            ]
          }
        },
        "additionalProperties": true
      },
      "StationList": {
        "type": "object",
        "required": [
          "stations"
        ],
        "properties": {
          "stations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Station"
            }
          }
        }
      },
      "DirectoryStation": {
        "type": "object",
        "required": [
          "uuid",
          "name",
          "streamURL",
          "kind",
          "languageCodes",
          "tags",
          "lastCheckOK"
        ],
        "properties": {
          "uuid": {
            "type": "string",
            "minLength": 1
          },
          "name": {
            "type": "string",
            "minLength": 1
          },
          "streamURL": {
            "type": "string",
            "format": "uri"
          },
          "kind": {
            "type": "string",
            "enum": [
              "icy",
              "hls",
              "dash"
            ]
          },
          "codec": {
            "type": [
              "string",
              "null"
            ]
          },
          "bitrate": {
            "type": [
              "integer",
              "null"
            ]
          },
          "homepage": {
            "type": [
              "string",
              "null"
            ]
          },
          "favicon": {
            "type": [
              "string",
              "null"
            ]
          },
          "countryCode": {
            "type": [
              "string",
              "null"
            ]
          },
          "languageCodes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "lastCheckOK": {
            "type": "boolean"
          }
        }
      },
      "DirectoryList": {
        "type": "object",
        "required": [
          "stations"
        ],
        "properties": {
          "stations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DirectoryStation"
            }
          }
        }
      },
      "JobRequest": {
        "type": "object",
        "required": [
          "kind",
          "station"
        ],
        "if": {
          "properties": {
            "kind": {
              "const": "relay"
            }
          }
        },
        "then": {
          "required": [
            "to"
          ]
        },
        "properties": {
          "kind": {
            "type": "string",
            "enum": [
              "relay",
              "record"
            ]
          },
          "station": {
            "type": "string",
            "minLength": 1,
            "description": "A catalogue station id or a stream URL."
          },
          "to": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "string"
            },
            "description": "A relay's sinks, as `onair relay --to` takes them."
          },
          "format": {
            "type": "string"
          },
          "output": {
            "type": "string"
          },
          "splitTracks": {
            "type": "boolean"
          },
          "persist": {
            "type": "boolean"
          }
        }
      },
      "Job": {
        "type": "object",
        "required": [
          "id",
          "kind",
          "station",
          "state",
          "sinks"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "kind": {
            "type": "string",
            "enum": [
              "relay",
              "record"
            ]
          },
          "station": {
            "type": "string"
          },
          "persist": {
            "type": "boolean"
          },
          "state": {
            "type": "string"
          },
          "startedAt": {
            "type": "string",
            "format": "date-time"
          },
          "uptime": {
            "type": "number"
          },
          "sinks": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "sink": {
                  "type": "string"
                },
                "listeners": {
                  "type": [
                    "integer",
                    "null"
                  ]
                }
              }
            }
          },
          "bytes": {
            "type": "integer"
          },
          "title": {
            "type": [
              "string",
              "null"
            ]
          },
          "gaps": {
            "type": "integer"
          },
          "gapSeconds": {
            "type": "number"
          },
          "reconnects": {
            "type": "integer"
          },
          "files": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string"
            }
          },
          "partial": {
            "type": [
              "string",
              "null"
            ]
          },
          "lastError": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "JobList": {
        "type": "object",
        "required": [
          "jobs"
        ],
        "properties": {
          "jobs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Job"
            }
          }
        }
      },
      "RuleRequest": {
        "type": "object",
        "required": [
          "station"
        ],
        "description": "One of programme, title, series, at, on or cron; at, on and cron need duration.",
        "properties": {
          "station": {
            "type": "string",
            "minLength": 1
          },
          "programme": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "series": {
            "type": "string"
          },
          "at": {
            "type": "string",
            "examples": [
              "fri 22:00"
            ]
          },
          "on": {
            "type": "string",
            "examples": [
              "2026-12-24T18:00:00"
            ]
          },
          "cron": {
            "type": "string"
          },
          "duration": {
            "type": "string",
            "examples": [
              "30m"
            ]
          },
          "timeZone": {
            "type": "string"
          },
          "padBefore": {
            "type": "string"
          },
          "padAfter": {
            "type": "string"
          },
          "format": {
            "type": "string",
            "enum": [
              "copy",
              "mp3",
              "m4a",
              "opus",
              "flac"
            ]
          },
          "output": {
            "type": "string"
          },
          "splitTracks": {
            "type": "boolean"
          },
          "keep": {
            "type": "integer",
            "minimum": 1
          },
          "keepDays": {
            "type": "integer",
            "minimum": 1,
            "description": "Keep the episodes that finished less than this many days ago."
          }
        }
      },
      "Rule": {
        "type": "object",
        "required": [
          "id",
          "station",
          "when",
          "timeZone",
          "paused"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "when": {
            "type": "string"
          },
          "timeZone": {
            "type": "string"
          },
          "padBefore": {
            "type": "string"
          },
          "padAfter": {
            "type": "string"
          },
          "format": {
            "type": "string"
          },
          "output": {
            "type": [
              "string",
              "null"
            ]
          },
          "splitTracks": {
            "type": "boolean"
          },
          "keep": {
            "type": [
              "integer",
              "null"
            ]
          },
          "keepDays": {
            "type": [
              "integer",
              "null"
            ]
          },
          "paused": {
            "type": "boolean"
          },
          "next": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "nextLocal": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "RuleList": {
        "type": "object",
        "required": [
          "rules"
        ],
        "properties": {
          "rules": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Rule"
            }
          }
        }
      },
      "UpcomingEpisode": {
        "type": "object",
        "required": [
          "rule",
          "station",
          "start",
          "end"
        ],
        "properties": {
          "rule": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "start": {
            "type": "string",
            "format": "date-time"
          },
          "end": {
            "type": "string",
            "format": "date-time"
          },
          "windowStart": {
            "type": "string",
            "format": "date-time"
          },
          "windowEnd": {
            "type": "string",
            "format": "date-time"
          },
          "timeZone": {
            "type": "string"
          }
        },
        "additionalProperties": true
      },
      "UpcomingList": {
        "type": "object",
        "required": [
          "episodes"
        ],
        "properties": {
          "episodes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/UpcomingEpisode"
            }
          }
        }
      },
      "Episode": {
        "type": "object",
        "required": [
          "ruleID",
          "station",
          "status"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "ruleID": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "windowStart": {
            "type": "string",
            "format": "date-time"
          },
          "windowEnd": {
            "type": "string",
            "format": "date-time"
          },
          "status": {
            "type": "string",
            "description": "scheduled, recording, done, failed or missed"
          },
          "reason": {
            "type": [
              "string",
              "null"
            ]
          },
          "late": {
            "type": "boolean"
          },
          "files": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "additionalProperties": true
      },
      "EpisodeList": {
        "type": "object",
        "required": [
          "episodes"
        ],
        "properties": {
          "episodes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Episode"
            }
          }
        }
      },
      "RecordingSummary": {
        "type": "object",
        "required": [
          "id",
          "station",
          "start",
          "end",
          "duration",
          "size",
          "kept",
          "audio"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "stationName": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "programmeName": {
            "type": [
              "string",
              "null"
            ]
          },
          "episodeTitle": {
            "type": [
              "string",
              "null"
            ]
          },
          "start": {
            "type": "string",
            "format": "date-time"
          },
          "end": {
            "type": "string",
            "format": "date-time"
          },
          "duration": {
            "type": "number"
          },
          "size": {
            "type": "integer"
          },
          "codec": {
            "type": "string"
          },
          "container": {
            "type": "string"
          },
          "gaps": {
            "type": "integer"
          },
          "kept": {
            "type": "boolean",
            "description": "Retention never deletes a kept recording."
          },
          "audio": {
            "type": "string",
            "description": "Path of the audio, which answers range requests."
          }
        }
      },
      "RecordingList": {
        "type": "object",
        "required": [
          "total",
          "recordings"
        ],
        "properties": {
          "total": {
            "type": "integer",
            "description": "How many match, beyond this page."
          },
          "recordings": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RecordingSummary"
            }
          }
        }
      },
      "Chapter": {
        "type": "object",
        "required": [
          "start",
          "end",
          "title"
        ],
        "properties": {
          "start": {
            "type": "number"
          },
          "end": {
            "type": "number"
          },
          "title": {
            "type": "string"
          }
        }
      },
      "RecordingDetail": {
        "type": "object",
        "required": [
          "recording",
          "titles",
          "gaps",
          "chapters"
        ],
        "properties": {
          "recording": {
            "$ref": "#/components/schemas/RecordingSummary"
          },
          "file": {
            "type": "string"
          },
          "titles": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "title": {
                  "type": "string"
                },
                "start": {
                  "type": "number"
                }
              },
              "additionalProperties": true
            }
          },
          "gaps": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "at": {
                  "type": "number"
                },
                "seconds": {
                  "type": "number"
                }
              }
            }
          },
          "chapters": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Chapter"
            }
          }
        }
      },
      "PodcastChapters": {
        "type": "object",
        "required": [
          "version",
          "chapters"
        ],
        "properties": {
          "version": {
            "type": "string"
          },
          "chapters": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "startTime",
                "title"
              ],
              "properties": {
                "startTime": {
                  "type": "number"
                },
                "title": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "Status": {
        "type": "object",
        "required": [
          "daemon",
          "jobs",
          "liveMounts"
        ],
        "properties": {
          "daemon": {
            "type": "object",
            "additionalProperties": true,
            "description": "What `onair status` shows: pid, startedAt, rules, active, next, recentFailures, and retention (minFree, freeBytes, lastDeletions: recording, station, file, size, reason, at)."
          },
          "jobs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Job"
            }
          },
          "liveMounts": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "diskFree": {
            "type": [
              "integer",
              "null"
            ],
            "description": "Bytes free where recordings go."
          }
        }
      },
      "GuideEntry": {
        "type": "object",
        "required": [
          "channel",
          "start",
          "stop",
          "startLocal",
          "stopLocal",
          "title",
          "categories",
          "onAir"
        ],
        "properties": {
          "channel": {
            "type": "string"
          },
          "station": {
            "type": [
              "string",
              "null"
            ],
            "description": "The station the channel is."
          },
          "start": {
            "type": "string",
            "format": "date-time"
          },
          "stop": {
            "type": "string",
            "format": "date-time"
          },
          "startLocal": {
            "type": "string",
            "description": "On the listing's clock: 2026-11-24T20:00:00+01:00."
          },
          "stopLocal": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "subTitle": {
            "type": [
              "string",
              "null"
            ]
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "episode": {
            "type": [
              "string",
              "null"
            ],
            "description": "S2E5, or the guide's on-screen number."
          },
          "categories": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "onAir": {
            "type": "boolean",
            "description": "On air now."
          }
        }
      },
      "GuideDay": {
        "type": "object",
        "required": [
          "date",
          "timeZone",
          "entries"
        ],
        "properties": {
          "date": {
            "type": "string",
            "description": "YYYY-MM-DD on timeZone's clock."
          },
          "timeZone": {
            "type": "string"
          },
          "entries": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/GuideEntry"
            }
          }
        }
      },
      "GuideChannel": {
        "type": "object",
        "required": [
          "id"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "station": {
            "type": [
              "string",
              "null"
            ],
            "description": "The station it is: mapped by hand, or the catalogue station whose guideID names it."
          },
          "stationName": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "GuideChannelList": {
        "type": "object",
        "required": [
          "channels"
        ],
        "properties": {
          "channels": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/GuideChannel"
            }
          }
        }
      },
      "ChannelMapping": {
        "type": "object",
        "required": [
          "station"
        ],
        "properties": {
          "station": {
            "type": "string",
            "minLength": 1,
            "description": "A catalogue station id or a stream URL."
          }
        }
      },
      "GuideImportRequest": {
        "type": "object",
        "required": [
          "url"
        ],
        "properties": {
          "url": {
            "type": "string",
            "minLength": 1,
            "examples": [
              "https://example.org/guide.xml"
            ]
          }
        }
      },
      "GuideImportReply": {
        "type": "object",
        "required": [
          "url",
          "notModified"
        ],
        "properties": {
          "url": {
            "type": "string"
          },
          "notModified": {
            "type": "boolean",
            "description": "The server answered 304: the copy imported last is current."
          },
          "imported": {
            "type": [
              "object",
              "null"
            ],
            "required": [
              "channels",
              "broadcasts",
              "replaced",
              "skipped"
            ],
            "properties": {
              "channels": {
                "type": "integer"
              },
              "broadcasts": {
                "type": "integer"
              },
              "replaced": {
                "type": "integer",
                "description": "Broadcasts of earlier imports the new guide replaced (moved ones among them)."
              },
              "skipped": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "GuideSource": {
        "type": "object",
        "required": [
          "url"
        ],
        "properties": {
          "url": {
            "type": "string"
          },
          "checkedAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "changedAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          }
        }
      },
      "GuideSourceList": {
        "type": "object",
        "required": [
          "sources"
        ],
        "properties": {
          "sources": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/GuideSource"
            }
          }
        }
      },
      "PodcastRequest": {
        "type": "object",
        "required": [
          "url"
        ],
        "properties": {
          "url": {
            "type": "string",
            "minLength": 1,
            "examples": [
              "https://example.org/feed.xml"
            ]
          }
        }
      },
      "ProgrammeAttachment": {
        "type": "object",
        "required": [
          "programme"
        ],
        "properties": {
          "programme": {
            "type": "string",
            "minLength": 1,
            "description": "A programme id from the catalogue, or one recorded."
          }
        }
      },
      "Podcast": {
        "type": "object",
        "required": [
          "id",
          "url",
          "title",
          "episodes",
          "item"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "url": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "programme": {
            "type": [
              "string",
              "null"
            ],
            "description": "The catalogue programme it is attached to (onair podcasts attach)."
          },
          "checkedAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "changedAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "episodes": {
            "type": "integer"
          },
          "item": {
            "type": "string",
            "description": "How playlists and likes name it: podcast:ID."
          }
        }
      },
      "PodcastList": {
        "type": "object",
        "required": [
          "podcasts"
        ],
        "properties": {
          "podcasts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Podcast"
            }
          }
        }
      },
      "PodcastRefresh": {
        "type": "object",
        "required": [
          "podcast",
          "notModified",
          "added",
          "warnings"
        ],
        "properties": {
          "podcast": {
            "$ref": "#/components/schemas/Podcast"
          },
          "notModified": {
            "type": "boolean",
            "description": "The server answered 304: the feed was not read again."
          },
          "added": {
            "type": "integer",
            "description": "Episodes new in this copy of the feed."
          },
          "warnings": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "What the feed gets wrong but was read anyway (an undeclared namespace, no title), one line each."
          },
          "error": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why the feed could not be refreshed."
          }
        }
      },
      "PodcastRefreshList": {
        "type": "object",
        "required": [
          "podcasts"
        ],
        "properties": {
          "podcasts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PodcastRefresh"
            }
          }
        }
      },
      "PodcastEpisode": {
        "type": "object",
        "required": [
          "id",
          "podcast",
          "title",
          "url",
          "downloaded",
          "heard",
          "item"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "podcast": {
            "type": "integer"
          },
          "title": {
            "type": "string"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "published": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "url": {
            "type": "string"
          },
          "mimeType": {
            "type": [
              "string",
              "null"
            ]
          },
          "length": {
            "type": [
              "integer",
              "null"
            ]
          },
          "duration": {
            "type": [
              "number",
              "null"
            ],
            "description": "Seconds."
          },
          "chaptersURL": {
            "type": [
              "string",
              "null"
            ]
          },
          "downloaded": {
            "type": "boolean"
          },
          "position": {
            "type": [
              "number",
              "null"
            ],
            "description": "Seconds in where playing it last stopped; absent if never played."
          },
          "heard": {
            "type": "boolean",
            "description": "Played to its end once."
          },
          "item": {
            "type": "string",
            "description": "How playlists, likes and onair play name it: episode:ID."
          }
        }
      },
      "PodcastEpisodeList": {
        "type": "object",
        "required": [
          "episodes"
        ],
        "properties": {
          "episodes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PodcastEpisode"
            }
          }
        }
      },
      "LibraryItem": {
        "type": "object",
        "required": [
          "kind",
          "ref",
          "title"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "enum": [
              "recording",
              "file",
              "station",
              "programme",
              "podcast",
              "episode"
            ]
          },
          "ref": {
            "type": "string",
            "description": "The recording's, programme's, podcast's or episode's id, the station's id or URL, the file's path."
          },
          "title": {
            "type": "string"
          }
        }
      },
      "PlaylistSummary": {
        "type": "object",
        "required": [
          "id",
          "name",
          "system"
        ],
        "properties": {
          "id": {
            "type": "string",
            "description": "What onair play playlist:ID takes: a number, or liked."
          },
          "name": {
            "type": "string"
          },
          "items": {
            "type": "integer",
            "description": "How many items it holds (not in search results)."
          },
          "system": {
            "type": "boolean",
            "description": "Liked, which liking and unliking change."
          }
        }
      },
      "PlaylistList": {
        "type": "object",
        "required": [
          "playlists"
        ],
        "properties": {
          "playlists": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PlaylistSummary"
            }
          }
        }
      },
      "PlaylistEntry": {
        "type": "object",
        "required": [
          "position",
          "item"
        ],
        "properties": {
          "position": {
            "type": "integer",
            "minimum": 1
          },
          "item": {
            "$ref": "#/components/schemas/LibraryItem"
          }
        }
      },
      "PlaylistDetail": {
        "type": "object",
        "required": [
          "playlist",
          "entries"
        ],
        "properties": {
          "playlist": {
            "$ref": "#/components/schemas/PlaylistSummary"
          },
          "entries": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PlaylistEntry"
            }
          }
        }
      },
      "SearchHit": {
        "type": "object",
        "required": [
          "playlist",
          "playlistName",
          "position",
          "item"
        ],
        "properties": {
          "playlist": {
            "type": "integer"
          },
          "playlistName": {
            "type": "string"
          },
          "position": {
            "type": "integer"
          },
          "item": {
            "$ref": "#/components/schemas/LibraryItem"
          }
        }
      },
      "PlaylistSearch": {
        "type": "object",
        "required": [
          "playlists",
          "items"
        ],
        "properties": {
          "playlists": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PlaylistSummary"
            }
          },
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/SearchHit"
            }
          }
        }
      },
      "PlaylistName": {
        "type": "object",
        "required": [],
        "properties": {
          "name": {
            "type": [
              "string",
              "null"
            ],
            "description": "Empty or absent: \"New playlist\"."
          }
        }
      },
      "PlaylistItems": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "string",
              "pattern": "^(recording|station|programme|podcast|episode):.+$",
              "examples": [
                "recording:12",
                "programme:jazz-hour",
                "podcast:1"
              ]
            }
          }
        }
      },
      "ItemMove": {
        "type": "object",
        "required": [
          "to"
        ],
        "properties": {
          "to": {
            "type": "integer",
            "minimum": 1,
            "description": "The item's new position."
          }
        }
      },
      "ItemsAdded": {
        "type": "object",
        "required": [
          "added",
          "hiddenLeftOut",
          "playlist"
        ],
        "properties": {
          "added": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LibraryItem"
            }
          },
          "hiddenLeftOut": {
            "type": "integer",
            "description": "Items left out because they are hidden."
          },
          "playlist": {
            "$ref": "#/components/schemas/PlaylistDetail"
          }
        }
      },
      "ItemMark": {
        "type": "object",
        "required": [
          "item"
        ],
        "properties": {
          "item": {
            "type": "string",
            "pattern": "^(recording|station|programme|podcast|episode):.+$",
            "examples": [
              "recording:12",
              "station:fip"
            ]
          }
        }
      },
      "MarkReply": {
        "type": "object",
        "required": [
          "item",
          "changed"
        ],
        "properties": {
          "item": {
            "$ref": "#/components/schemas/LibraryItem"
          },
          "liked": {
            "type": "boolean",
            "description": "From /likes: whether it is liked now."
          },
          "hidden": {
            "type": "boolean",
            "description": "From /hidden: whether it is hidden now."
          },
          "changed": {
            "type": "boolean",
            "description": "False when it was so already."
          }
        }
      },
      "HiddenList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LibraryItem"
            }
          }
        }
      }
    },
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from `onair web token create NAME`."
      },
      "cookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "onair_session",
        "description": "The login session set by `POST /login` (the web password). Requests that change something also send its CSRF token in `X-CSRF-Token`."
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "Credentials are set and the request has neither a valid bearer token nor a login cookie.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Forbidden": {
        "description": "A request from another site (its Origin or Sec-Fetch-Site), or a login cookie sent without the session's CSRF token (`X-CSRF-Token`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The body is not sent as `application/json`: a page of another site could send text or a form unasked, never JSON.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Misdirected": {
        "description": "The request's Host is not a name this daemon answers to (an IP address, localhost, --public-url or --allow-host): DNS rebinding is refused.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    }
  },
  "security": [
    {},
    {
      "bearer": []
    },
    {
      "cookie": []
    }
  ]
}
"""#
}
