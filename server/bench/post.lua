-- wrk posts a new hygiene submission per request (a fresh UUID each).
math.randomseed(os.time())
local function uuid()
  return string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(c)
    local v = (c == "x") and math.random(0, 15) or math.random(8, 11)
    return string.format("%x", v)
  end)
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  return wrk.format(nil, nil, nil, '{"id":"' .. uuid() .. '","rating":4,"tags":["no_soap"]}')
end
